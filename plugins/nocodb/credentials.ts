import type { CredentialsTestContext } from '#sdk/runner'
import { NOCODB_DEFAULT_BASE_URL } from './index.js'

/** The Test button: the token must open the base list (GET /api/v2/meta/bases). */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const base = (String(credentials.baseUrl ?? '').trim() || NOCODB_DEFAULT_BASE_URL).replace(
    /\/+$/,
    ''
  )
  try {
    const response = await http.request(`${base}/api/v2/meta/bases`, {
      headers: { 'xc-token': String(credentials.apiKey ?? '') },
      signal,
    })
    if (response.ok) return { ok: true, message: 'Connected.' }
    return { ok: false, message: `NocoDB answered ${response.status}` }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}
