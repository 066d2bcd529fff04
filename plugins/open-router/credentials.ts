import type { CredentialsTestContext } from '#sdk/runner'
import { testByListingModels } from '#sdk/ai'
import { provider } from './runner.js'

/** Checks the key by listing the models (GET {baseUrl}/models). Server only. */
export function test(context: CredentialsTestContext) {
  return testByListingModels(provider, context)
}
