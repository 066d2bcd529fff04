import type { CredentialsTestContext } from '#sdk/runner'
import { OPENAI_DEFAULT_BASE_URL } from './index.js'

/**
 * Checks an OpenAI (or compatible) key by listing the models, the cheapest authenticated
 * call of that API. Server only.
 */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '')
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const baseUrl = String(credentials.baseUrl || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const url = new URL(`${baseUrl}/models`)
  if (credentials.apiVersion) url.searchParams.set('api-version', String(credentials.apiVersion))
  const response = await http.request(url, {
    headers: {
      'authorization': `Bearer ${apiKey}`,
      'api-key': apiKey,
      'accept': 'application/json',
    },
    signal,
  })
  if (response.ok) {
    const body = (await response.json().catch(() => null)) as { data?: unknown[] } | null
    const count = Array.isArray(body?.data) ? body!.data!.length : 0
    return { ok: true, message: `Connected: ${count} model${count === 1 ? '' : 's'} available.` }
  }
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null
  return {
    ok: false,
    message:
      body?.error?.message ??
      `The server answered ${response.status} ${response.statusText}`.trim(),
  }
}
