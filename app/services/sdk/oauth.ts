import type { OAuthCredentials, OAuthIo, OAuthProvider } from '../../../packages/sdk/src/oauth.js'

/**
 * The app's side of `#sdk/oauth` (`@flowcraft/sdk/oauth`): OAuth 2 bearer calls for plugins whose credential holds an access
 * token and, optionally, a refresh token with the OAuth client's id and secret. Expired
 * access tokens are renewed with the refresh-token grant (RFC 6749 §6) and kept in memory
 * only (they are secrets, and short-lived), keyed by client and refresh token so every
 * workflow of one account shares them. A stored token whose `expiresAt` has passed is renewed
 * before the call; a 401 renews once and tries again.
 */

const renewed = new Map<string, { token: string; expiresAt: number }>()

const text = (value: unknown) => String(value ?? '').trim()

function cacheKey(provider: OAuthProvider, credentials: OAuthCredentials) {
  return [provider.tokenUrl, text(credentials.clientId), text(credentials.refreshToken)].join(
    '\u0000'
  )
}

/** A stored token past (or within a minute of) its known end: renewed before it is sent. */
function hasExpired(credentials: OAuthCredentials) {
  const expiresAt = Number(credentials.expiresAt)
  return expiresAt > 0 && expiresAt - 60_000 <= Date.now()
}

export function canRefresh(credentials: OAuthCredentials) {
  return Boolean(
    text(credentials.refreshToken) && text(credentials.clientId) && text(credentials.clientSecret)
  )
}

async function refresh(provider: OAuthProvider, credentials: OAuthCredentials, io: OAuthIo) {
  const response = await io.http.request(provider.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: text(credentials.refreshToken),
      client_id: text(credentials.clientId),
      client_secret: text(credentials.clientSecret),
    }).toString(),
    signal: io.signal,
  })
  const answer = await readTokenAnswer(response)
  if ('refusal' in answer) {
    throw new Error(`${provider.name} refused the token refresh: ${answer.refusal}`.trim())
  }
  const entry = {
    token: answer.access_token,
    expiresAt: Date.now() + Math.max(60, Number(answer.expires_in) || 3600) * 1000,
  }
  renewed.set(cacheKey(provider, credentials), entry)
  return entry.token
}

/** The token to send: a renewed one still fresh, else the stored one, else a renewal. */
export async function oauthAccessToken(
  provider: OAuthProvider,
  credentials: OAuthCredentials,
  io: OAuthIo,
  renew = false
) {
  if (canRefresh(credentials)) {
    const cached = renewed.get(cacheKey(provider, credentials))
    if (!renew && cached && cached.expiresAt - 60_000 > Date.now()) return cached.token
    if (!renew && !cached && text(credentials.accessToken) && !hasExpired(credentials)) {
      return text(credentials.accessToken)
    }
    return refresh(provider, credentials, io)
  }
  if (text(credentials.accessToken)) return text(credentials.accessToken)
  throw new Error(
    `${provider.name}: the credentials need an access token, or a refresh token with the OAuth client ID and secret`
  )
}

/**
 * A request with `Authorization: Bearer {token}`; a 401 with refreshable credentials renews
 * the token and sends it once more. The caller reads the response.
 */
export async function oauthRequest(
  provider: OAuthProvider,
  credentials: OAuthCredentials,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  io: OAuthIo
) {
  const send = async (token: string) =>
    io.http.request(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${token}` },
      signal: io.signal,
    })
  const response = await send(await oauthAccessToken(provider, credentials, io))
  if (response.status !== 401 || !canRefresh(credentials)) return response
  await response.body?.cancel().catch(() => {})
  return send(await oauthAccessToken(provider, credentials, io, true))
}

/** Forgets renewed tokens (tests that play a restart). */
export function forgetOAuthTokens() {
  renewed.clear()
}

/**
 * An OAuth 2 token endpoint's answer (RFC 6749 section 5): the access token and its lifetime,
 * or why it was refused (the provider's error description, else the HTTP status).
 */
export async function readTokenAnswer(
  response: Response
): Promise<{ access_token: string; expires_in?: number } | { refusal: string }> {
  const answer = (await response.json().catch(() => null)) as {
    access_token?: string
    expires_in?: number
    error?: string
    error_description?: string
  } | null
  if (!response.ok || !answer?.access_token) {
    return {
      refusal: String(
        answer?.error_description ?? answer?.error ?? `${response.status} ${response.statusText}`
      ),
    }
  }
  return { access_token: answer.access_token, expires_in: answer.expires_in }
}
