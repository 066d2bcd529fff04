import { randomBytes } from 'node:crypto'
import { sendJson, startStandIn } from './stand_in_server.js'

/**
 * A local stand-in for LinkedIn as the LinkedIn node meets it:
 * - POST /oauth/v2/accessToken (grant_type=refresh_token, refresh_token, client_id,
 *   client_secret, form-encoded) → {access_token, expires_in, refresh_token...}; a wrong
 *   refresh token or client → 400 {error: invalid_grant | invalid_client, error_description}
 * - GET /v2/userinfo (OpenID) → {sub, name, email}
 * - POST /rest/posts (LinkedIn-Version YYYYMM, X-Restli-Protocol-Version 2.0.0, JSON) →
 *   201, empty body, the post's URN in x-restli-id
 * Bearer tokens are checked: an expired or unknown one gets 401 {status, serviceErrorCode:
 * 65601, code: REVOKED_ACCESS_TOKEN | EXPIRED_ACCESS_TOKEN, message} as LinkedIn answers.
 */
export async function startLinkedInStandIn(account: {
  memberId: string
  name: string
  validTokens: string[]
  refreshToken: string
  clientId: string
  clientSecret: string
}) {
  const tokens = new Set(account.validTokens)
  const posts: { headers: Record<string, unknown>; body: any; urn: string }[] = []
  const service = await startStandIn(({ req, res, url, text, body }) => {
    if (url.pathname === '/oauth/v2/accessToken' && req.method === 'POST') {
      const form = new URLSearchParams(text)
      if (
        form.get('client_id') !== account.clientId ||
        form.get('client_secret') !== account.clientSecret
      ) {
        return sendJson(res, 401, {
          error: 'invalid_client',
          error_description: 'Client authentication failed',
        })
      }
      if (
        form.get('grant_type') !== 'refresh_token' ||
        form.get('refresh_token') !== account.refreshToken
      ) {
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description: 'The provided authorization grant is invalid',
        })
      }
      const token = `AQ${randomBytes(12).toString('hex')}`
      tokens.add(token)
      return sendJson(res, 200, {
        access_token: token,
        expires_in: 5183999,
        refresh_token: account.refreshToken,
        refresh_token_expires_in: 31536000,
        scope: 'openid,profile,w_member_social',
      })
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (!bearer || !tokens.has(bearer)) {
      return sendJson(res, 401, {
        status: 401,
        serviceErrorCode: 65601,
        code: 'REVOKED_ACCESS_TOKEN',
        message: 'The token used in the request has been revoked by the user',
      })
    }
    if (url.pathname === '/v2/userinfo' && req.method === 'GET') {
      return sendJson(res, 200, { sub: account.memberId, name: account.name, email_verified: true })
    }
    if (url.pathname === '/rest/posts' && req.method === 'POST') {
      if (!/^\d{6}$/.test(String(req.headers['linkedin-version'] ?? ''))) {
        return sendJson(res, 400, {
          status: 400,
          code: 'VERSION_MISSING',
          message: 'A version must be present',
        })
      }
      if (
        !body?.author ||
        !body?.commentary ||
        !['PUBLIC', 'CONNECTIONS'].includes(body?.visibility)
      ) {
        return sendJson(res, 422, { status: 422, message: 'ERROR :: /visibility :: invalid value' })
      }
      if (body.author !== `urn:li:person:${account.memberId}`) {
        return sendJson(res, 403, {
          status: 403,
          message: `Not enough permissions to post as ${body.author}`,
        })
      }
      const urn = `urn:li:share:${Date.now()}${posts.length}`
      posts.push({ headers: req.headers, body, urn })
      res.writeHead(201, { 'x-restli-id': urn, 'x-linkedin-id': urn })
      return res.end()
    }
    return sendJson(res, 404, { status: 404, message: 'Not Found' })
  })
  return { ...service, posts, revoke: (token: string) => tokens.delete(token) }
}
