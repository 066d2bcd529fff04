import PluginPlanSetting from '#models/plugin_plan_setting'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { capabilitiesChanged, stampedCache, type CapabilityTurn } from '#services/capability_stamp'
import { planFor } from '#services/capabilities'
import { PLAN_NAMES, type PlanDefinition, hasPlanFeature, type PlanName } from '#shared/plans'

/**
 * The block marketplace: admins enable or disable each plugin per plan. A plugin is
 * enabled on a plan unless a setting says otherwise, so new plugins work at once.
 * The editor, the bot runtime and the workflow runtime all ask here, through one cache
 * that an admin change empties in every process (capability_stamp.ts).
 */

export type PluginAvailability = 'enabled' | 'locked' | 'hidden'

type PlanSettings = Map<string, Map<PlanName, boolean>>

const cachedSettings = stampedCache<PlanSettings>()

/** The switches as stored, read through the shared cache (`turn`: a chat turn's view). */
export function planSettings(turn?: CapabilityTurn): Promise<PlanSettings> {
  return cachedSettings('settings', readPlanSettings, turn)
}

/**
 * The admin's switches by plugin id. A switch saved under a folded plugin's former id
 * (an alias) applies to the plugin that took it, unless that plugin has its own switch for
 * the plan: the folded plugins' settings are not lost, and the current id's win.
 */
async function readPlanSettings(): Promise<PlanSettings> {
  const rows = await PluginPlanSetting.all()
  const registry = await pluginRegistry()
  const settings = new Map<string, Map<PlanName, boolean>>()
  const isAlias = (row: PluginPlanSetting) => registry.canonicalId(row.pluginId) !== row.pluginId
  // Aliases first, so that a switch of the current id, read last, wins.
  for (const row of [...rows.filter(isAlias), ...rows.filter((other) => !isAlias(other))]) {
    const id = registry.canonicalId(row.pluginId)
    if (!settings.has(id)) settings.set(id, new Map())
    settings.get(id)!.set(row.plan, !!row.enabled)
  }
  return settings
}

export function isEnabledIn(
  settings: Map<string, Map<PlanName, boolean>>,
  pluginId: string,
  plan: PlanName
) {
  return settings.get(pluginId)?.get(plan) ?? true
}

/**
 * Per plugin, for a plan: enabled; locked (enabled on another plan, or needing a feature
 * the plan lacks: the editor shows it with an upgrade hint); or hidden (enabled on no plan).
 * Given the plan's definition, its features count; given its name alone, they do not.
 */
export async function availabilityFor(
  planOrName: PlanName | PlanDefinition
): Promise<Map<string, PluginAvailability>> {
  const plan = typeof planOrName === 'string' ? planOrName : planOrName.name
  const features = typeof planOrName === 'string' ? undefined : planOrName.features
  const settings = await planSettings()
  const result = new Map<string, PluginAvailability>()
  for (const plugin of (await pluginRegistry()).all()) {
    const feature = plugin.planFeature
    const lacksFeature = !!features && !hasPlanFeature(features, feature)
    if (isEnabledIn(settings, plugin.id, plan))
      result.set(plugin.id, lacksFeature ? 'locked' : 'enabled')
    else if (PLAN_NAMES.some((p) => isEnabledIn(settings, plugin.id, p)))
      result.set(plugin.id, 'locked')
    else result.set(plugin.id, 'hidden')
  }
  return result
}

export async function setPluginEnabled(pluginId: string, plan: PlanName, enabled: boolean) {
  if (!(await pluginRegistry()).has(pluginId)) throw AppError.notFound('Plugin not found')
  await PluginPlanSetting.updateOrCreate({ pluginId, plan }, { enabled })
  // updateOrCreate writes in a transaction of its own, so the model's hook moves the stamp
  // only after the commit, without waiting: moved here too, before the admin gets the answer.
  await capabilitiesChanged()
}

/** Removes every switch: all plugins enabled on all plans again. */
export async function resetPluginSettings() {
  await PluginPlanSetting.query().delete()
  await capabilitiesChanged()
}

/**
 * May a block of this type run in this workspace? What both runtimes ask before a block
 * or node reaches its runner, by the workspace's plan (planFor). Checks of one chat turn
 * pass its `turn`: they share one read of the capability stamp.
 */
export async function isPluginAllowedIn(
  pluginId: string,
  workspaceId: string,
  turn?: CapabilityTurn
) {
  const settings = await planSettings(turn)
  if (!settings.has(pluginId)) return true
  return isEnabledIn(settings, pluginId, (await planFor(null, workspaceId, turn)).plan.name)
}

/**
 * Refuses block types that are unknown or not enabled on the plan, with a message that
 * names the block (used when saving or running a bot or workflow).
 */
export async function assertPluginsEnabled(
  types: Iterable<string>,
  plan: PlanName | PlanDefinition
) {
  const registry = await pluginRegistry()
  const availability = await availabilityFor(plan)
  for (const type of new Set(types)) {
    const plugin = registry.get(type)
    if (!plugin) {
      throw new AppError('Unknown block', {
        status: 422,
        code: 'E_UNKNOWN_PLUGIN',
        description: 'This block type is not installed on this server.',
      })
    }
    // A block stored under a folded plugin's former id is judged as that plugin.
    if (availability.get(plugin.id) !== 'enabled') {
      throw new AppError('Block not available on your plan', {
        status: 403,
        code: 'E_PLUGIN_DISABLED',
        description:
          'This block is not available on your plan. Upgrade your plan or remove the block.',
      })
    }
  }
}
