import type { ApplicationService } from '@adonisjs/core/types'

/**
 * The plugin SDK's port: the helpers plugins import (`#sdk/*`, `@flowcraft/sdk/*`) declare
 * what they do and call the app through it, so they hold nothing of the app. Registered in
 * every environment (web, worker, console, tests) before any plugin runs.
 */
export default class SdkProvider {
  constructor(protected app: ApplicationService) {}

  async boot() {
    const { registerSdkPort } = await import('#services/sdk/port')
    registerSdkPort()
  }
}
