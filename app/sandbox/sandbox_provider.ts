import type { ApplicationService } from '@adonisjs/core/types'
import { configureSandbox, disposeSandbox } from '#sandbox/sandbox'
import type { SandboxPoolOptions } from '#sandbox/types'

/**
 * Applies config/sandbox.ts to the shared pool and frees the isolates when the application
 * (web server, worker or ace command) shuts down.
 * Register it in adonisrc.ts: `() => import('#sandbox/sandbox_provider')`.
 */
export default class SandboxProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    // Unset (undefined) values fall back to the pool's own defaults.
    configureSandbox(this.app.config.get<SandboxPoolOptions>('sandbox', {}))
  }

  async shutdown() {
    await disposeSandbox()
  }
}
