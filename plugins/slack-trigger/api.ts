import { createHmac, timingSafeEqual } from 'node:crypto'

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

export { callSlack } from '#sdk/slack'

/** The event types of the option ('message, app_mention'); empty: every type. */
export function eventTypesOf(value: unknown): string[] {
  return String(value ?? '')
    .split(/[\s,]+/)
    .map((type) => type.trim())
    .filter(Boolean)
}
