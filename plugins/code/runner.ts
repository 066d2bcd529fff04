import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/**
 * Runs the script on the server in the sandbox (setVariable(name, value) updates the
 * flow's variables), or sends it to the browser when isExecutedOnClient.
 */
export const run: Runner<typeof plugin> = async ({ options, variables, sandbox, logger }) => {
  const code = options.content ?? ''
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
