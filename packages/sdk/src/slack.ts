import type { HttpClient } from './runner_types.js'

/**
 * `@flowcraft/sdk/slack` (`#sdk/slack`): Slack's Web API as the Slack plugins call it (the
 * trigger's checks, the action node): POST {base}/{method} with the bot token, parameters
 * form-encoded (every method takes them so; structured ones such as `files` are JSON strings).
 * Slack answers 200 with {ok: false, error} on refusals: those throw with Slack's error code.
 */

export const SLACK_DEFAULT_BASE_URL = 'https://slack.com/api'

export type SlackParams = Record<string, string | number | boolean | undefined>

export async function callSlack<T = Record<string, unknown>>(
  credentials: Record<string, unknown>,
  method: string,
  { http, signal }: { http: HttpClient; signal?: AbortSignal },
  params: SlackParams = {}
): Promise<T> {
  const token = String(credentials.botToken ?? '').trim()
  if (!token) throw new Error('Slack: the bot token is missing')
  const base = String(credentials.baseUrl || SLACK_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) body.set(key, String(value))
  }
  const response = await http.request(`${base}/${method}`, {
    method: 'POST',
    headers: {
      'authorization': `Bearer ${token}`,
      'content-type': 'application/x-www-form-urlencoded',
      'accept': 'application/json',
    },
    body: body.toString(),
    signal,
  })
  const answer = (await response.json().catch(() => null)) as
    ({ ok?: boolean; error?: string } & T) | null
  if (!response.ok || !answer?.ok) {
    const reason = answer?.error ?? `${response.status} ${response.statusText}`.trim()
    throw new Error(`Slack refused ${method}: ${reason}`)
  }
  return answer
}
