import type { CredentialsTestContext } from '#sdk/runner'
import { DIFY_ENDPOINT_MESSAGE, difyOrigin } from './index.js'

/**
 * Checks the endpoint and the app key by reading the app's basic information
 * (GET /v1/info): authenticated, and it spends no tokens. Server only.
 */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const origin = difyOrigin(credentials.apiEndpoint)
  if (!origin) return { ok: false, message: DIFY_ENDPOINT_MESSAGE }
  const apiKey = String(credentials.apiKey ?? '').trim()
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const response = await http.request(`${origin}/v1/info`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
    signal,
  })
  const body = (await response.json().catch(() => null)) as {
    name?: unknown
    message?: unknown
  } | null
  if (response.ok) {
    return {
      ok: true,
      message: typeof body?.name === 'string' ? `Connected to "${body.name}".` : 'Connected.',
    }
  }
  return {
    ok: false,
    message:
      typeof body?.message === 'string'
        ? body.message
        : `The server answered ${response.status} ${response.statusText}`.trim(),
  }
}
