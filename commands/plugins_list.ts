import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace plugins:list
 * Prints every plugin found under plugins/, as the server registry sees it at boot.
 */
export default class PluginsList extends BaseCommand {
  static commandName = 'plugins:list'
  static description = 'List the block and node plugins found in plugins/'
  static options: CommandOptions = { startApp: false }

  async run() {
    const { loadPlugins } = await import('#plugins/registry')
    const { pluginSlug } = await import('#plugins/define_plugin')
    const registry = await loadPlugins(this.app.makePath('plugins'))
    const plugins = registry
      .all()
      .sort((a, b) => a.category.localeCompare(b.category) || a.id.localeCompare(b.id))

    const table = this.ui.table()
    table.head(['id', 'folder', 'category', 'scope', 'serves', 'version'])
    for (const plugin of plugins) {
      table.row([
        plugin.id,
        `plugins/${pluginSlug(plugin)}`,
        plugin.category,
        plugin.scope,
        plugin.serves.join(', '),
        String(plugin.version),
      ])
    }
    table.render()
    this.logger.info(`${plugins.length} plugins`)
  }
}
