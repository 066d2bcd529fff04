import type { HttpContext } from '@adonisjs/core/http'
import { RunFetcher } from '#actions/plugins/run_fetcher'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { runFetcherValidator } from '#validators/plugin_fetcher'

/**
 * POST /api/plugins/:pluginId/fetchers/:fetcher {options, workspaceId?}: the live options
 * of a field (a provider's models) for the editor's form, as { items: [{value, label}] }.
 */
export default class PluginFetchersController {
  async run(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(runFetcherValidator)
    const user = ctx.auth.getUserOrFail()
    // The workspace named in the body (RunFetcher checks the membership), else the
    // current one (the editor's page set it to the bot's or workflow's workspace).
    const workspaceId =
      payload.workspaceId ?? (await resolveCurrentWorkspace(ctx, user))?.workspace.id ?? ''
    const items = await new RunFetcher().handle(user, {
      pluginId: ctx.params.pluginId,
      fetcher: ctx.params.fetcher,
      workspaceId,
      options: (payload.options ?? {}) as Record<string, unknown>,
    })
    return ctx.response.ok({ items })
  }
}
