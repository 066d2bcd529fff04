import type { CredentialsTestContext } from '#sdk/runner'
import { DEFAULT_BASE_URL } from './index.js'

/** The editor's Test button for Scaffold check 11767: one authenticated call tells whether the key works. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '').trim()
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const baseUrl = (String(credentials.baseUrl ?? '').trim() || DEFAULT_BASE_URL).replace(/\/+$/, '')
  try {
    const response = await http.request(`${baseUrl}/v1/search?q=ping`, {
      headers: { accept: 'application/json', authorization: `Bearer ${apiKey}` },
      signal,
    })
    if (response.status === 401 || response.status === 403) {
      return { ok: false, message: `The API key was refused (${response.status}).` }
    }
    if (!response.ok) return { ok: false, message: `The service answered ${response.status}.` }
    return { ok: true, message: 'Connected.' }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
