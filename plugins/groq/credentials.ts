import type { CredentialsTestContext } from '../../app/services/plugin_registry.js'
import { testByListingModels } from '../../app/plugins/ai/chat_completion_runner.js'
import { provider } from './runner.js'

/** Checks the key by listing the models (GET {baseUrl}/models). Server only. */
export function test(context: CredentialsTestContext) {
  return testByListingModels(provider, context)
}
