import { createHmac, timingSafeEqual } from 'node:crypto'
import type { HttpClient } from '#sdk/plugin'
import { SLACK_DEFAULT_BASE_URL } from './index.js'

/** Slack refuses requests older than this; so do we (a replayed call is stale by then). */
export const MAX_AGE_SECONDS = 5 * 60

/** Slack's request signature: v0= + hex HMAC-SHA256 of `v0:{timestamp}:{body}`. */
export function slackSignature(signingSecret: string, timestamp: string, body: string) {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`
}

/** Why a call is not Slack's, or null when its signature and timestamp hold. */
export function signatureProblem(
  signingSecret: string,
  headers: Record<string, string | undefined>,
  rawBody: string,
  nowMs = Date.now()
): string | null {
  const timestamp = headers['x-slack-request-timestamp']
  const signature = headers['x-slack-signature']
  if (!timestamp || !signature) return 'Missing Slack signature'
  const seconds = Number(timestamp)
  if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - seconds) > MAX_AGE_SECONDS) {
    return 'Stale Slack request timestamp'
  }
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, rawBody))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? null
    : 'Invalid Slack signature'
}

/** A Web API method with the bot token; Slack answers 200 with {ok: false, error} on refusals. */
export async function callSlack<T = Record<string, unknown>>(
  credentials: Record<string, unknown>,
  method: string,
  { http, signal }: { http: HttpClient; signal: AbortSignal }
): Promise<T> {
  const token = String(credentials.botToken ?? '').trim()
  if (!token) throw new Error('Slack: the bot token is missing')
  const base = String(credentials.baseUrl || SLACK_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const response = await http.request(`${base}/${method}`, {
    method: 'POST',
    headers: {
      'authorization': `Bearer ${token}`,
      'content-type': 'application/x-www-form-urlencoded',
      'accept': 'application/json',
    },
    body: '',
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

/** The event types of the option ('message, app_mention'); empty: every type. */
export function eventTypesOf(value: unknown): string[] {
  return String(value ?? '')
    .split(/[\s,]+/)
    .map((type) => type.trim())
    .filter(Boolean)
}
