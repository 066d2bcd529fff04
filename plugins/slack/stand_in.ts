import { createHmac, randomBytes } from 'node:crypto'
import { sendJson, startStandIn, type StandInExchange } from '#sdk/testing'

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

export async function startSlackStandIn(options: {
  botToken: string
  signingSecret: string
  /** Channels the app is a member of (default C0ORDERS). */
  channels?: string[]
}) {
  // Channels the bot is in, messages it posted, files uploaded (by id).
  const channels = new Set(options.channels ?? ['C0ORDERS'])
  const messages: {
    channel: string
    ts: string
    text: string
    thread_ts?: string
    params: Record<string, string>
  }[] = []
  const files = new Map<
    string,
    { filename: string; length: number; bytes?: Buffer; shared?: Record<string, string> }
  >()
  let clock = 1_700_000_000
  // Set once listening: the upload URLs point back at this server.
  let origin = ''
  const standIn = await startStandIn(
    ({ req, res, url, raw, text, recorded: { method } }): void => {
      const send = (data: unknown, status = 200) =>
        sendJson(res, status, data, 'application/json; charset=utf-8')
      // The upload URL files.getUploadURLExternal hands out: raw bytes, no token.
      const upload = /^\/upload\/(F\w+)$/.exec(url.pathname)
      if (upload) {
        const file = files.get(upload[1])
        if (!file || req.method !== 'POST') return send({ ok: false }, 404)
        file.bytes = raw
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`OK - ${raw.length}`)
        return
      }
      if (req.method !== 'POST' && req.method !== 'GET') return send({ ok: false }, 405)
      const authorization = String(req.headers.authorization ?? '')
      if (!authorization.startsWith('Bearer ')) return send({ ok: false, error: 'not_authed' })
      if (authorization !== `Bearer ${options.botToken}`) {
        return send({ ok: false, error: 'invalid_auth' })
      }
      const params = Object.fromEntries(new URLSearchParams(text))
      switch (method) {
        case 'auth.test':
          return send({
            ok: true,
            url: 'https://acme.slack.com/',
            team: 'Acme',
            user: 'orders_bot',
            team_id: 'T0001',
            user_id: 'U0BOT',
            bot_id: 'B0001',
          })
        case 'chat.postMessage': {
          if (!params.channel) return send({ ok: false, error: 'channel_not_found' })
          if (!channels.has(params.channel)) return send({ ok: false, error: 'not_in_channel' })
          if (!params.text) return send({ ok: false, error: 'no_text' })
          if (params.text.length > 40_000) return send({ ok: false, error: 'msg_too_long' })
          if (params.thread_ts && !messages.some((m) => m.ts === params.thread_ts)) {
            return send({ ok: false, error: 'thread_not_found' })
          }
          const ts = `${++clock}.000100`
          messages.push({
            channel: params.channel,
            ts,
            text: params.text,
            thread_ts: params.thread_ts,
            params,
          })
          return send({ ok: true, channel: params.channel, ts, message: { text: params.text, ts } })
        }
        case 'conversations.open': {
          // A direct conversation per member, the same id each time (as Slack answers).
          const user = params.users ?? ''
          if (!/^[UW][A-Z0-9]+$/.test(user)) return send({ ok: false, error: 'user_not_found' })
          const id = `D${user.slice(1)}`
          channels.add(id)
          return send({ ok: true, channel: { id } })
        }
        case 'files.getUploadURLExternal': {
          const length = Number(params.length)
          if (!params.filename || !Number.isInteger(length) || length < 1) {
            return send({ ok: false, error: 'invalid_arguments' })
          }
          const id = `F${String(files.size + 1).padStart(6, '0')}`
          files.set(id, { filename: params.filename, length })
          return send({ ok: true, upload_url: `${origin}/upload/${id}`, file_id: id })
        }
        case 'files.completeUploadExternal': {
          let list: { id: string; title?: string }[]
          try {
            list = JSON.parse(params.files ?? '')
          } catch {
            return send({ ok: false, error: 'invalid_arguments' })
          }
          if (params.channel_id && !channels.has(params.channel_id)) {
            return send({ ok: false, error: 'not_in_channel' })
          }
          for (const entry of list) {
            const file = files.get(entry.id)
            if (!file?.bytes || file.bytes.length !== file.length) {
              return send({ ok: false, error: 'file_not_found' })
            }
            file.shared = params
          }
          return send({
            ok: true,
            files: list.map((entry) => ({ id: entry.id, title: entry.title })),
          })
        }
        default:
          return send({ ok: false, error: 'unknown_method' }, 404)
      }
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

  origin = standIn.baseUrl

  let eventCount = 0
  let lastPayload: Record<string, unknown> | null = null
  return {
    baseUrl: `${standIn.baseUrl}/api`,
    calls: standIn.requests,
    messages,
    files,
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
