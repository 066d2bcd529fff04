import type { HttpContext } from '@adonisjs/core/http'
import { RunPluginCall } from '#actions/plugins/run_plugin_call'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { runPluginCallValidator } from '#validators/plugin_call'

/**
 * POST /api/:plugin/:call (e.g. /api/postgres/findRecord): runs a data plugin's action with
 * the workspace's stored credentials; `{ success: true, data }` or 422 `{ success: false, error }`.
 */
export default class PluginCallsController {
  async run(ctx: HttpContext) {
    const { workspaceId, ...options } = await ctx.request.validateUsing(runPluginCallValidator)
    const user = ctx.auth.getUserOrFail()
    const workspace = workspaceId ?? (await resolveCurrentWorkspace(ctx, user))?.workspace.id ?? ''
    const answer = await new RunPluginCall().handle(user, {
      plugin: ctx.params.plugin,
      call: ctx.params.call,
      workspaceId: workspace,
      options,
    })
    return answer.success ? ctx.response.ok(answer) : ctx.response.unprocessableEntity(answer)
  }
}
