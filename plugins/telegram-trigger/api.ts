import type { HttpClient } from '#sdk/plugin'
import { TELEGRAM_DEFAULT_BASE_URL, TELEGRAM_UPDATE_OPTIONS } from './index.js'

/** Telegram's Bot API: POST {base}/bot{token}/{method} with a JSON body, answers {ok, result}. */
export async function callTelegram<T = unknown>(
  credentials: Record<string, unknown>,
  method: string,
  body: Record<string, unknown>,
  { http, signal }: { http: HttpClient; signal: AbortSignal }
): Promise<T> {
  const token = String(credentials.accessToken ?? '').trim()
  if (!token) throw new Error('Telegram: the bot token is missing')
  const base = String(credentials.baseUrl || TELEGRAM_DEFAULT_BASE_URL).replace(/\/+$/, '')
  let response: Response
  try {
    response = await http.request(`${base}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json' },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    // The URL holds the token: the message names the server only.
    throw new Error(`Telegram could not be reached at ${base} (${(error as Error).name})`)
  }
  const answer = (await response.json().catch(() => null)) as {
    ok?: boolean
    result?: T
    description?: string
  } | null
  if (!response.ok || !answer?.ok) {
    const reason = answer?.description ?? `${response.status} ${response.statusText}`.trim()
    throw new Error(`Telegram refused ${method}: ${reason}`)
  }
  return answer.result as T
}

/** The Telegram update types the options ask for (message when none is chosen). */
export function updateTypesOf(options: Record<string, unknown>): string[] {
  const chosen = Object.entries(TELEGRAM_UPDATE_OPTIONS)
    .filter(([option]) => options[option] === true || options[option] === 'true')
    .map(([, type]) => type)
  return chosen.length > 0 ? chosen : ['message']
}
