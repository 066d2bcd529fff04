import { randomBytes } from 'node:crypto'
import { recordText, sendJson, startStandIn } from '#sdk/testing'

/**
 * A local stand-in for Twilio's REST API 2010-04-01 as the Twilio plugin calls it:
 * Basic auth (account SID : auth token) on /2010-04-01/Accounts/{Sid}..., form-encoded
 * parameters, JSON answers, errors as `{ code, message, more_info, status }`:
 * - GET  /Accounts/{Sid}.json → the account
 * - POST /Accounts/{Sid}/Messages.json (To, From, Body) → 201 a queued message
 * - POST /Accounts/{Sid}/Calls.json (To, From, Twiml|Url, TimeLimit...) → 201 a queued call
 * Numbers the account does not own as senders are refused (21606), bad numbers too (21211).
 */
export async function startTwilioStandIn(account: {
  sid: string
  token: string
  numbers: string[]
}) {
  const error = (res: any, status: number, code: number, message: string) =>
    sendJson(res, status, {
      code,
      message,
      more_info: `https://www.twilio.com/docs/errors/${code}`,
      status,
    })
  return startStandIn(
    ({ req, res, url, text }) => {
      const expected = `Basic ${Buffer.from(`${account.sid}:${account.token}`).toString('base64')}`
      if (req.headers.authorization !== expected) return error(res, 401, 20003, 'Authenticate')
      const base = `/2010-04-01/Accounts/${account.sid}`
      if (req.method === 'GET' && url.pathname === `${base}.json`) {
        return sendJson(res, 200, {
          sid: account.sid,
          friendly_name: 'Test account',
          status: 'active',
        })
      }
      const kind =
        url.pathname === `${base}/Messages.json`
          ? 'message'
          : url.pathname === `${base}/Calls.json`
            ? 'call'
            : undefined
      if (req.method !== 'POST' || !kind)
        return error(res, 404, 20404, 'The requested resource was not found')
      const params = new URLSearchParams(text)
      const to = params.get('To') ?? ''
      const from = params.get('From') ?? ''
      if (!/^\+[1-9]\d{6,14}$/.test(to)) {
        return error(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`)
      }
      if (!account.numbers.includes(from)) {
        return error(
          res,
          400,
          21606,
          `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`
        )
      }
      if (kind === 'message' && !params.get('Body')) {
        return error(res, 400, 21602, 'Message body is required.')
      }
      if (kind === 'call' && !params.get('Twiml') && !params.get('Url')) {
        return error(res, 400, 21205, 'Url parameter is required.')
      }
      const sid = `${kind === 'message' ? 'SM' : 'CA'}${randomBytes(16).toString('hex')}`
      return sendJson(res, 201, {
        sid,
        account_sid: account.sid,
        to,
        from,
        status: 'queued',
        ...(kind === 'message' ? { body: params.get('Body'), num_segments: '1' } : {}),
        uri: `${base}/${kind === 'message' ? 'Messages' : 'Calls'}/${sid}.json`,
      })
    },
    { record: recordText }
  )
}
