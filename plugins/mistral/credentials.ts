import type { CredentialsTestContext } from '#sdk/runner'
import { MISTRAL_BASE_URL } from './index.js'

/** Checks a Mistral key by listing the models: authenticated and free. Server only. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '').trim()
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const baseUrl = String(credentials.baseUrl || MISTRAL_BASE_URL).replace(/\/+$/, '')
  const response = await http.request(`${baseUrl}/models`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
    signal,
  })
  const body = (await response.json().catch(() => null)) as {
    data?: unknown[]
    message?: unknown
  } | null
  if (response.ok) {
    const count = Array.isArray(body?.data) ? body!.data!.length : 0
    return { ok: true, message: `Connected: ${count} model${count === 1 ? '' : 's'} available.` }
  }
  return {
    ok: false,
    message:
      typeof body?.message === 'string'
        ? body.message
        : `The server answered ${response.status} ${response.statusText}`.trim(),
  }
}
