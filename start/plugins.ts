/*
| The plugins are discovered at boot rather than on the first request that needs them, so
| that a plugin left out (a broken manifest, a missing icon) is in the log when the server
| starts, not minutes later. A plugin's problem never stops the server: the others work.
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { pluginRegistry } from '#services/plugin_registry'

app.ready(async () => {
  try {
    const registry = await pluginRegistry()
    const leftOut = new Set(registry.problems().map((problem) => problem.where)).size
    if (leftOut > 0) {
      logger.error(
        `${leftOut} plugin(s) left out, see the errors above, \`node ace plugins:list\` and /admin/plugins`
      )
    }
  } catch (error) {
    logger.error({ err: error }, 'plugins could not be loaded; retrying on the next request')
  }
})
