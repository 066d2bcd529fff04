import type { SurfaceRunner } from '#sdk/runner'
import type plugin from './index.js'

/** `$node["Title"]` in a workflow script: the outputs of the nodes it names (only those). */
function nodeOutputs(code: string, workflow: { outputOf?(node: string): unknown } | undefined) {
  const outputs: Record<string, unknown> = {}
  for (const match of code.matchAll(/\$node\[\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\]/g)) {
    const name = match[1] !== undefined ? JSON.parse(`"${match[1]}"`) : match[2]
    if (!(name in outputs)) outputs[name] = workflow?.outputOf?.(name) ?? null
  }
  return outputs
}

/**
 * A bot runs the script on the server in the sandbox (setVariable(name, value) updates the
 * flow's variables), or sends it to the browser when isExecutedOnClient. A workflow node
 * runs it in the sandbox with `input` last, so that it wins over a variable of the same
 * name; a sandbox failure (error, time or memory limit) throws, which fails the node.
 */
export const run: SurfaceRunner<typeof plugin> = async ({
  surface,
  options,
  variables,
  sandbox,
  workflow,
  logger,
}) => {
  const code = options.content ?? ''
  if (surface === 'workflow') {
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
    const output = await sandbox.run(code, {
      ...scope,
      $node: nodeOutputs(code, workflow),
      $trigger: workflow?.triggerData ?? null,
      input: workflow?.input ?? null,
    })
    return { output: output ?? null }
  }
  if (!code.trim()) return {}
  const values = Object.fromEntries(variables.list().map((v) => [v.name, v.value ?? null]))
  if (options.isExecutedOnClient !== false) {
    return {
      clientSideActions: [
        {
          type: 'scriptToExecute',
          scriptToExecute: {
            content: code,
            args: Object.entries(values).map(([id, value]) => ({ id, value })),
          },
        },
      ],
    }
  }
  if (!sandbox) {
    logger.error('Script: no sandbox available')
    return {}
  }
  await sandbox.run(code, values)
  logger.success(`${options.name || 'Script'} ran`)
  return {}
}

export { fromN8n } from './n8n.js'
