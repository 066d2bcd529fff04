import type { CredentialsTestContext } from '#sdk/runner'
import { CHAT_NODE_DEFAULT_BASE_URL } from './index.js'

/**
 * The chat API has no listing endpoint, and a real message would reach one of the
 * builder's bots and be billed. So the check asks a bot id that cannot exist with an empty
 * message: the service authenticates before it looks the bot up, so 401/403 means the key
 * is refused and any other answer (404 unknown bot, 400 empty message) means it is accepted.
 */
export const PROBE_BOT_ID = 'flowcraft-credentials-check'

export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '')
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const baseUrl = String(credentials.baseUrl || CHAT_NODE_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const response = await http.request(`${baseUrl}/v1/${PROBE_BOT_ID}`, {
    method: 'POST',
    headers: {
      'authorization': `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'accept': 'application/json',
    },
    body: JSON.stringify({ message: '', chat_session_id: '' }),
    signal,
  })
  await response.body?.cancel().catch(() => {})
  if (response.status === 401 || response.status === 403) {
    return { ok: false, message: `The API key was refused (${response.status}).` }
  }
  if (response.status >= 500) {
    return { ok: false, message: `The server answered ${response.status} ${response.statusText}` }
  }
  return { ok: true, message: 'Connected: the API key was accepted.' }
}
