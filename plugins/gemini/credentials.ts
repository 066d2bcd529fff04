import type { CredentialsTestContext } from '#sdk/runner'
import { endpointOf } from './runner.js'
import { listGeminiModels } from './lib/generate_content.js'

/** Checks the key by listing the models: free, and refused for a wrong key. Server only. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) return { ok: false, message: 'API key missing' }
  try {
    const count = (await listGeminiModels(http, endpoint, signal)).length
    return { ok: true, message: `Connected: ${count} model${count === 1 ? '' : 's'} available.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
