import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import type { AnyPlugin } from '#plugins/registry'

/** The credential types a plugin uses: its own (typed by its id) and those its fields pick. */
function credentialTypesOf(plugin: AnyPlugin): string[] {
  const types = new Set<string>(plugin.credentials ? [plugin.id] : [])
  const groups = [plugin.options, ...Object.values(plugin.actions ?? {}).map((a: any) => a.options)]
  for (const fields of groups) {
    for (const field of Object.values(fields ?? {}) as any[]) {
      if (field?.kind === 'credentials' && typeof field.credentialType === 'string')
        types.add(field.credentialType)
    }
  }
  return [...types]
}

/**
 * node ace plugins:list
 * Prints every plugin as the server registry sees it at boot: the folders of plugins/ and the
 * installed plugin packages (docs/plugins.md, "Plugins as packages"), then those it leaves
 * out and why (exit code 1 when there are any).
 */
export default class PluginsList extends BaseCommand {
  static commandName = 'plugins:list'
  static description = 'List the block and node plugins: folders of plugins/ and packages'
  // The plans column reads the plans and the marketplace settings from the database.
  static options: CommandOptions = { startApp: true }

  async run() {
    const { loadAppPlugins } = await import('#services/plugin_registry')
    const plansOf = await this.plansReader()
    const listed = this.app.config.get<string[]>('plugins.packages', [])
    const registry = await loadAppPlugins(this.app.makePath(), listed)
    const plugins = registry
      .all()
      .sort((a, b) => a.category.localeCompare(b.category) || a.id.localeCompare(b.id))

    const table = this.ui.table()
    table.head(['id', 'source', 'category', 'serves', 'credentials', 'plans', 'version'])
    for (const plugin of plugins) {
      const source = registry.sourceOf(plugin.id)
      table.row([
        plugin.id,
        source?.kind === 'package'
          ? `package ${source.name}@${source.version}`
          : `folder ${source?.path ?? ''}`,
        plugin.category,
        plugin.serves.join(', '),
        credentialTypesOf(plugin).join(', ') || '-',
        plansOf(plugin),
        String(plugin.version),
      ])
    }
    table.render()
    this.logger.info(`${plugins.length} plugins`)

    // Left out by the registry: the server runs without them and logs the same lines at boot.
    const problems = registry.problems()
    if (problems.length > 0) {
      const leftOut = this.ui.table()
      leftOut.head(['left out', 'problem'])
      for (const problem of problems) {
        const message = problem.message.startsWith(`${problem.where}: `)
          ? problem.message.slice(problem.where.length + 2)
          : problem.message
        leftOut.row([problem.where, message])
      }
      leftOut.render()
      const count = new Set(problems.map((problem) => problem.where)).size
      this.logger.error(`${count} plugin(s) left out`)
      this.exitCode = 1
    }
  }

  /**
   * The plans a plugin is available on: enabled there by the marketplace and, when its
   * manifest needs a plan feature, on the plans that have it. Without a database (not yet
   * migrated) the column says what the manifest needs.
   */
  private async plansReader(): Promise<(plugin: AnyPlugin) => string> {
    const { listPlans } = await import('#services/plans')
    const { planSettings, isEnabledIn } = await import('#services/marketplace')
    const { hasPlanFeature } = await import('#shared/plans')
    try {
      const [plans, settings] = await Promise.all([listPlans(), planSettings()])
      return (plugin) => {
        const names = plans
          .filter((plan) => isEnabledIn(settings, plugin.id, plan.name))
          .filter((plan) => hasPlanFeature(plan.features, plugin.planFeature))
          .map((plan) => plan.name)
        if (names.length === plans.length) return 'all'
        return names.length > 0 ? names.join(', ') : 'none'
      }
    } catch (error: any) {
      this.logger.warning(`plans unknown: ${error?.message ?? error}`)
      return (plugin) => (plugin.planFeature ? `with ${plugin.planFeature}` : 'all')
    }
  }
}
