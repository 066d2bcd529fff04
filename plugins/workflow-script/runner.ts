import type { WorkflowRunner } from '#sdk/runner'
import type plugin from './index.js'

/**
 * Runs the code in the sandbox with its default limits (10 s, 32 MB): variables by name,
 * `input` last so that it wins over a variable of the same name. A sandbox failure (error,
 * time or memory limit) throws, which fails the node.
 */
export const run: WorkflowRunner<typeof plugin> = async ({
  options,
  variables,
  sandbox,
  workflow,
  logger,
}) => {
  const code = options.code ?? ''
  if (!code.trim()) {
    logger.info('Script: no code, the input is passed on')
    return
  }
  if (!sandbox) throw new Error('Script: no sandbox available')
  const scope = Object.fromEntries(
    variables
      .list()
      // {{$...}} references are for option texts, not names in code.
      .filter((variable) => !variable.name.startsWith('$'))
      .map((variable) => [variable.name, variable.value ?? null])
  )
  const output = await sandbox.run(code, { ...scope, input: workflow?.input ?? null })
  return { output: output ?? null }
}
