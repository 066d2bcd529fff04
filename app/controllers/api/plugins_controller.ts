import type { HttpContext } from '@adonisjs/core/http'
import { TestBlock } from '#actions/bots/test_block'
import { testBlockValidator } from '#validators/marketplace'
import { pluginRegistry } from '#services/plugin_registry'
import { availabilityFor } from '#services/marketplace'
import { planFor } from '#services/capabilities'
import { findWorkspaceFor } from '#services/workspace_access'
import { editorViewOf, validatorFor } from '#plugins/derive'
import AppError from '#exceptions/app_error'
import { categoryOn, storedOptionsOf } from '#plugins/define_plugin'

/**
 * GET /api/v1/plugins?workspaceId=…&surface=bot|workflow: what an editor's sidebar shows.
 * Plugins enabled on the plan come with `locked: false`, those enabled only on other plans
 * with `locked: true` (shown with an upgrade hint); plugins enabled nowhere are left out.
 */
export default class PluginsController {
  async index({ auth, request, response }: HttpContext) {
    const { workspaceId, surface } = request.qs()
    const { workspace } = await findWorkspaceFor(auth.user!, String(workspaceId ?? ''))
    const { plan } = await planFor(auth.user!, workspace)
    const availability = await availabilityFor(plan)
    const registry = await pluginRegistry()
    const plugins = (surface === 'workflow' ? registry.forWorkflows() : registry.forBots())
      .filter((plugin) => availability.get(plugin.id) !== 'hidden')
      .map((plugin) => ({
        id: plugin.id,
        name: plugin.name,
        fullName: plugin.fullName,
        tags: plugin.tags,
        category: categoryOn(plugin, surface === 'workflow' ? 'workflow' : 'bot'),
        icon: plugin.icon ?? null,
        version: plugin.version,
        locked: availability.get(plugin.id) === 'locked',
        ...editorViewOf(plugin, surface === 'workflow' ? 'workflow' : 'bot'),
      }))
    return response.ok({ plan: plan.name, plugins })
  }

  /**
   * POST /api/v1/plugins/validate {id, options, mode?: 'save'|'run'}: checks a block's
   * options with the validator derived from its declaration; 422 with field errors.
   */
  async validate({ request, response }: HttpContext) {
    const { id, options, mode, surface } = request.only(['id', 'options', 'mode', 'surface'])
    const plugin = (await pluginRegistry()).get(String(id ?? ''))
    if (!plugin) throw AppError.notFound('Plugin not found')
    // Options stored under a folded plugin's former id are checked in the plugin's shape.
    const stored = storedOptionsOf(
      plugin,
      String(id),
      (options ?? {}) as Record<string, unknown>,
      surface === 'workflow' ? 'workflow' : 'bot'
    )
    const value = await validatorFor(plugin, { mode: mode === 'save' ? 'save' : 'run' }).validate(
      stored
    )
    return response.ok({ valid: true, options: value })
  }

  /** POST /api/bots/:botId/blocks/test {type, options, values}: runs one block for the editor. */
  async test({ auth, params, request }: HttpContext) {
    const { type, options, values } = await request.validateUsing(testBlockValidator)
    return new TestBlock().handle(auth.getUserOrFail(), params.botId, {
      type,
      options: (options ?? {}) as Record<string, unknown>,
      values: values as Record<string, string> | undefined,
    })
  }
}
