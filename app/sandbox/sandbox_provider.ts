import { disposeSandbox } from '#sandbox/sandbox'

/**
 * Frees the isolates when the application (web server, worker or ace command) shuts down.
 * Register it in adonisrc.ts: `() => import('#sandbox/sandbox_provider')`.
 */
export default class SandboxProvider {
  async shutdown() {
    await disposeSandbox()
  }
}
