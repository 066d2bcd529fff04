import type { CredentialsTestContext } from '#sdk/runner'
import { listModels, ProviderError } from '#sdk/ai'
import { VISION_DEFAULT_BASE_URL, VISION_DEFAULT_MODEL } from './index.js'

/** Checks the key by listing the models, and says whether the chosen model is among them. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '')
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const baseUrl = String(credentials.baseUrl || VISION_DEFAULT_BASE_URL)
  const model = String(credentials.model || VISION_DEFAULT_MODEL)
  try {
    const models = await listModels(http, { baseUrl, apiKey }, signal)
    const count = `${models.length} model${models.length === 1 ? '' : 's'}`
    // Some servers list only part of what they serve: a missing model is a warning.
    if (!models.some((listed) => listed.id === model)) {
      return { ok: true, message: `Connected, but ${model} is not among the ${count} listed.` }
    }
    return { ok: true, message: `Connected: ${count} available, including ${model}.` }
  } catch (error) {
    if (error instanceof ProviderError && (error.status === 401 || error.status === 403)) {
      return { ok: false, message: `The API key was refused (${error.status}).` }
    }
    return { ok: false, message: (error as Error).message }
  }
}
