import AppError from '#exceptions/app_error'
import type User from '#models/user'
import { pluginRegistry } from '#services/plugin_registry'
import { roleIn } from '#services/workspace_access'
import { runPlugin } from '#services/runner_context'

export interface RunPluginCallInput {
  /** The plugin id, as in `/api/postgres/findRecord`. */
  plugin: string
  call: string
  workspaceId: string
  /** The action's options: credentialsId, tableName, columns, fields, conditions... */
  options: Record<string, unknown>
}

/**
 * An application call of a plugin (`POST /api/{plugin}/{call}`): the plugin's runner.ts exports `apiCalls` naming the action each call runs. The
 * action runs as a block would, with the workspace's stored credentials, for a member of the
 * workspace; its output is the answer's data and its first error log the answer's error.
 */
export class RunPluginCall {
  async handle(user: User, input: RunPluginCallInput) {
    if ((await roleIn(user, input.workspaceId)) === null) {
      throw AppError.notFound('Workspace not found')
    }
    const registry = await pluginRegistry()
    const plugin = registry.get(input.plugin)
    const calls = plugin
      ? await registry.exportOf<Record<string, string>>(plugin.id, 'apiCalls')
      : undefined
    const action = calls && Object.hasOwn(calls, input.call) ? calls[input.call] : undefined
    if (!plugin || typeof action !== 'string') throw AppError.notFound('Not found')

    const outcome = await runPlugin({
      registry,
      plugin,
      options: { ...input.options, action },
      variables: [],
      workspaceId: input.workspaceId,
      ownerId: user.id,
      surface: 'workflow',
      timeoutMs: 30_000,
    })
    const error = outcome.logs.find((log) => log.status === 'error')
    const data = (outcome.result as { output?: unknown } | undefined)?.output ?? null
    return error
      ? { success: false as const, error: error.description, details: error.details ?? null }
      : { success: true as const, data, logs: outcome.logs }
  }
}
