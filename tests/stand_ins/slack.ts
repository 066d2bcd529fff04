import { createHmac, randomBytes } from 'node:crypto'
import { sendJson, startStandIn, type StandInExchange } from './stand_in_server.js'

/**
 * A local stand-in for Slack as an Events API app meets it: the Web API method auth.test
 * (Bearer bot token; refusals are 200 with {ok: false, error} as Slack does), and Slack's
 * side of event delivery: `verifyUrl` sends the url_verification challenge and checks the
 * answer echoes it, `deliver` sends an event_callback. Both sign each call as Slack does
 * (X-Slack-Request-Timestamp, X-Slack-Signature = v0= hex HMAC-SHA256 of
 * `v0:{timestamp}:{body}` with the app's signing secret).
 */

export interface SlackCall {
  method: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

export async function startSlackStandIn(options: { botToken: string; signingSecret: string }) {
  const standIn = await startStandIn(
    ({ req, res, recorded: { method } }) => {
      const send = (data: unknown, status = 200) =>
        sendJson(res, status, data, 'application/json; charset=utf-8')
      if (req.method !== 'POST' && req.method !== 'GET') return send({ ok: false }, 405)
      if (method !== 'auth.test') return send({ ok: false, error: 'unknown_method' }, 404)
      const authorization = String(req.headers.authorization ?? '')
      if (!authorization.startsWith('Bearer ')) return send({ ok: false, error: 'not_authed' })
      if (authorization !== `Bearer ${options.botToken}`) {
        return send({ ok: false, error: 'invalid_auth' })
      }
      send({
        ok: true,
        url: 'https://acme.slack.com/',
        team: 'Acme',
        user: 'orders_bot',
        team_id: 'T0001',
        user_id: 'U0BOT',
        bot_id: 'B0001',
      })
    },
    {
      record: ({ req, url, text }: StandInExchange): SlackCall => ({
        method: url.pathname.replace(/^\/api\//, ''),
        headers: req.headers,
        body: text,
      }),
    }
  )

  /** Posts a body to the app's Request URL, signed as Slack signs it (overrides for tests). */
  async function post(
    url: string,
    payload: unknown,
    signing: { timestamp?: number; secret?: string; retryNum?: number } = {}
  ) {
    const body = JSON.stringify(payload)
    const timestamp = String(signing.timestamp ?? Math.floor(Date.now() / 1000))
    const signature = `v0=${createHmac('sha256', signing.secret ?? options.signingSecret)
      .update(`v0:${timestamp}:${body}`)
      .digest('hex')}`
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signature,
        ...(signing.retryNum ? { 'x-slack-retry-num': String(signing.retryNum) } : {}),
      },
      body,
    })
    const text = await response.text()
    let json: any = null
    try {
      json = JSON.parse(text)
    } catch {}
    return { status: response.status, body: json ?? text }
  }

  let eventCount = 0
  let lastPayload: Record<string, unknown> | null = null
  return {
    baseUrl: `${standIn.baseUrl}/api`,
    calls: standIn.requests,
    /** What Slack does when the Request URL is saved: true when the challenge comes back. */
    async verifyUrl(url: string) {
      const challenge = randomBytes(16).toString('hex')
      const answer = await post(url, { token: 'legacy-token', challenge, type: 'url_verification' })
      const echoed = typeof answer.body === 'object' ? answer.body?.challenge : answer.body
      return { ...answer, verified: answer.status === 200 && echoed === challenge }
    },
    /** Sends one event wrapped as Slack wraps it (event_callback). */
    deliver(
      url: string,
      event: Record<string, unknown>,
      signing: { timestamp?: number; secret?: string } = {}
    ) {
      eventCount++
      lastPayload = {
        token: 'legacy-token',
        team_id: 'T0001',
        api_app_id: 'A0001',
        event,
        type: 'event_callback',
        event_id: `Ev${String(eventCount).padStart(4, '0')}`,
        event_time: Math.floor(Date.now() / 1000),
      }
      return post(url, lastPayload, signing)
    },
    /**
     * What Slack does when our answer to the last event took over 3 s or failed: the same
     * payload (same event_id) again, with X-Slack-Retry-Num.
     */
    redeliver(url: string, retryNum = 1) {
      if (!lastPayload) throw new Error('nothing delivered yet')
      return post(url, lastPayload, { retryNum })
    },
    close: standIn.close,
  }
}
