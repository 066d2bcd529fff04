import type { CredentialsTestContext } from '#sdk/runner'
import { whoamiUrl } from './api.js'

/** Checks the token by asking whose it is: authenticated, free, no model is run. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '')
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const response = await http.request(
    whoamiUrl({ baseUrl: credentials.baseUrl ? String(credentials.baseUrl) : undefined }),
    { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' }, signal }
  )
  const body = (await response.json().catch(() => null)) as {
    name?: unknown
    error?: unknown
  } | null
  if (response.status === 401 || response.status === 403) {
    return { ok: false, message: `The access token was refused (${response.status}).` }
  }
  if (!response.ok) {
    return {
      ok: false,
      message:
        typeof body?.error === 'string'
          ? body.error
          : `The server answered ${response.status} ${response.statusText}`.trim(),
    }
  }
  return {
    ok: true,
    message: typeof body?.name === 'string' ? `Connected as ${body.name}.` : 'Connected.',
  }
}
