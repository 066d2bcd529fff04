import type { HttpClient } from './runner_types.js'

/**
 * `@flowcraft/sdk/telegram` (`#sdk/telegram`): the Telegram Bot API as every Telegram plugin
 * calls it (the trigger, the action node; the bot channel goes through it too): POST
 * {base}/bot{token}/{method} with a JSON body, answered {ok, result} or {ok: false,
 * description}. Errors never carry the URL, which holds the token.
 */

export const TELEGRAM_DEFAULT_BASE_URL = 'https://api.telegram.org'

export async function callTelegram<T = unknown>(
  credentials: Record<string, unknown>,
  method: string,
  body: Record<string, unknown>,
  { http, signal }: { http: HttpClient; signal?: AbortSignal }
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
