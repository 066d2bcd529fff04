import type { CredentialsTestContext } from '#sdk/runner'
import { ProviderError } from '#sdk/ai'
import { listTextToSpeechModels } from './api.js'

/** Checks the key by listing the text-to-speech models: authenticated, free and quick. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '')
  if (!apiKey) return { ok: false, message: 'API key missing' }
  try {
    const models = await listTextToSpeechModels(
      http,
      { apiKey, baseUrl: credentials.baseUrl ? String(credentials.baseUrl) : undefined },
      signal
    )
    const count = models.length
    return {
      ok: true,
      message: `Connected: ${count} text-to-speech model${count === 1 ? '' : 's'} available.`,
    }
  } catch (error) {
    if (error instanceof ProviderError && (error.status === 401 || error.status === 403)) {
      return { ok: false, message: `The API key was refused (${error.status}).` }
    }
    return { ok: false, message: (error as Error).message }
  }
}
