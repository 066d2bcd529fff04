import type { HttpContext } from '@adonisjs/core/http'
import { pluginRegistry } from '#services/plugin_registry'
import { defaultsOf, formOf } from '#plugins/derive'
import { isEnabledIn, planSettings, setPluginEnabled } from '#services/marketplace'
import { pluginPlanValidator } from '#validators/marketplace'
import { PLAN_NAMES, type PlanName } from '#shared/plans'
import AppError from '#exceptions/app_error'

/** /admin/plugins: instance admins enable or disable each plugin per plan. */
export default class AdminPluginsController {
  async index({ bouncer, inertia }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const settings = await planSettings()
    const registry = await pluginRegistry()
    const plugins = registry.all().map((plugin) => ({
      id: plugin.id,
      name: plugin.name,
      description: plugin.description ?? null,
      category: plugin.category,
      version: plugin.version,
      icon: plugin.icon ?? null,
      serves: [...plugin.serves],
      plans: Object.fromEntries(
        PLAN_NAMES.map((plan) => [plan, isEnabledIn(settings, plugin.id, plan)])
      ),
    }))
    // The plugins the registry left out, with why: an admin sees them here, not only in the log.
    const leftOut = registry.problems().map(({ where, message }) => ({ where, message }))
    return inertia.render('admin/plugins', { plugins, plans: PLAN_NAMES, leftOut })
  }

  /** One plugin's generated form with its defaults: what builders will see in the editor. */
  async show({ bouncer, inertia, params }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const plugin = (await pluginRegistry()).get(decodeURIComponent(params.id))
    if (!plugin) throw AppError.notFound('Plugin not found')
    return inertia.render('admin/plugin', {
      plugin: { id: plugin.id, name: plugin.name, description: plugin.description ?? null },
      form: formOf(plugin),
      defaults: defaultsOf(plugin),
    })
  }

  async update({ bouncer, params, request, response, session }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const plan = params.plan as PlanName
    if (!PLAN_NAMES.includes(plan)) throw AppError.notFound('Plan not found')
    const { enabled } = await request.validateUsing(pluginPlanValidator)
    await setPluginEnabled(decodeURIComponent(params.id), plan, enabled)
    session.flash('toast', {
      type: 'success',
      title: enabled ? 'Plugin enabled' : 'Plugin disabled',
    })
    return response.redirect().withQs().back()
  }
}
