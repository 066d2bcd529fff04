import { randomBytes } from 'node:crypto'
import { sendJson, startStandIn } from '#sdk/testing'

/**
 * A local stand-in for LinkedIn as the LinkedIn node and the credentials' Connect meet it:
 * - GET /oauth/v2/authorization (response_type=code, client_id, redirect_uri, scope, state):
 *   a consent page whose Allow link goes back to redirect_uri with a one-time code and the
 *   state, and whose Cancel link with error=user_cancelled_authorize; a wrong client or a
 *   missing parameter → 400 page
 * - POST /oauth/v2/accessToken, form-encoded with client_id and client_secret:
 *   grant_type=authorization_code (the code it issued, the same redirect_uri) or
 *   grant_type=refresh_token → {access_token, expires_in, refresh_token...} (a refresh token
 *   only for apps LinkedIn enabled for it: `refreshTokens`); a wrong code, refresh token or
 *   client → 400/401 {error: invalid_grant | invalid_request | invalid_client,
 *   error_description}
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
  /** Whether the token endpoint hands out refresh tokens (default true). */
  refreshTokens?: boolean
}) {
  const tokens = new Set(account.validTokens)
  const posts: { headers: Record<string, unknown>; body: any; urn: string }[] = []
  const consents: URLSearchParams[] = []
  const grants: URLSearchParams[] = []
  const codes = new Map<string, string>()
  const issue = (refresh: boolean) => {
    const token = `AQ${randomBytes(12).toString('hex')}`
    tokens.add(token)
    return {
      access_token: token,
      expires_in: 5183999,
      ...(refresh
        ? { refresh_token: account.refreshToken, refresh_token_expires_in: 31536000 }
        : {}),
      scope: 'openid,profile,w_member_social',
    }
  }
  const service = await startStandIn(({ req, res, url, text, body }) => {
    if (url.pathname === '/oauth/v2/authorization' && req.method === 'GET') {
      const query = url.searchParams
      consents.push(query)
      const redirect = query.get('redirect_uri')
      if (
        query.get('response_type') !== 'code' ||
        query.get('client_id') !== account.clientId ||
        !redirect ||
        !query.get('scope') ||
        !query.get('state')
      ) {
        res.writeHead(400, { 'content-type': 'text/html' })
        return res.end('<p>Bummer, something went wrong. (invalid request)</p>')
      }
      const code = `code-${randomBytes(8).toString('hex')}`
      codes.set(code, redirect)
      const allow = new URL(redirect)
      allow.searchParams.set('code', code)
      allow.searchParams.set('state', query.get('state')!)
      const cancel = new URL(redirect)
      cancel.searchParams.set('error', 'user_cancelled_authorize')
      cancel.searchParams.set('error_description', 'The user cancelled the authorization')
      cancel.searchParams.set('state', query.get('state')!)
      const escape = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;')
      res.writeHead(200, { 'content-type': 'text/html' })
      return res.end(
        `<!doctype html><title>LinkedIn</title><p>Allow access to ${escape(query.get('scope')!)}?</p>` +
          `<a id="allow" href="${escape(allow.toString())}">Allow</a> ` +
          `<a id="cancel" href="${escape(cancel.toString())}">Cancel</a>`
      )
    }
    if (url.pathname === '/oauth/v2/accessToken' && req.method === 'POST') {
      const form = new URLSearchParams(text)
      grants.push(form)
      if (
        form.get('client_id') !== account.clientId ||
        form.get('client_secret') !== account.clientSecret
      ) {
        return sendJson(res, 401, {
          error: 'invalid_client',
          error_description: 'Client authentication failed',
        })
      }
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? ''
        const redirect = codes.get(code)
        codes.delete(code)
        if (!redirect || redirect !== form.get('redirect_uri')) {
          return sendJson(res, 400, {
            error: 'invalid_request',
            error_description:
              'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.',
          })
        }
        return sendJson(res, 200, issue(account.refreshTokens !== false))
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
      return sendJson(res, 200, issue(true))
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
  return {
    ...service,
    posts,
    consents,
    grants,
    authorizeUrl: `${service.baseUrl}/oauth/v2/authorization`,
    tokenUrl: `${service.baseUrl}/oauth/v2/accessToken`,
    revoke: (token: string) => tokens.delete(token),
  }
}
