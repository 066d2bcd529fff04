import type { CredentialsTestContext } from '#sdk/runner'
import { AIRTABLE_DEFAULT_BASE_URL } from './index.js'

/** The Test button: the token must be accepted by GET /v0/meta/whoami. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const root = (String(credentials.baseUrl ?? '').trim() || AIRTABLE_DEFAULT_BASE_URL).replace(
    /\/+$/,
    ''
  )
  try {
    const response = await http.request(`${root}/v0/meta/whoami`, {
      headers: { authorization: `Bearer ${String(credentials.apiKey ?? '').trim()}` },
      signal,
    })
    if (response.ok) return { ok: true, message: 'Connected.' }
    return { ok: false, message: `Airtable answered ${response.status}` }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}
