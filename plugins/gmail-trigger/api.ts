import type { HttpClient } from '#sdk/plugin'
import { canRefresh, oauthRequest, type OAuthCredentials, type OAuthProvider } from '#sdk/oauth'
import { GMAIL_DEFAULT_BASE_URL, GOOGLE_DEFAULT_TOKEN_URL } from './index.js'

interface Io {
  http: HttpClient
  signal: AbortSignal
}

function text(value: unknown) {
  return String(value ?? '').trim()
}

/** Google's token endpoint: the SDK's refusals read "Google refused the token refresh: ...". */
function providerOf(credentials: Record<string, unknown>): OAuthProvider {
  return { name: 'Google', tokenUrl: text(credentials.tokenUrl) || GOOGLE_DEFAULT_TOKEN_URL }
}

/**
 * The record's tokens and OAuth client, and nothing else: the record has no `expiresAt`, so
 * a stored access token is sent until Gmail refuses it.
 */
function tokensOf(credentials: Record<string, unknown>): OAuthCredentials {
  const { accessToken, refreshToken, clientId, clientSecret } = credentials
  return { accessToken, refreshToken, clientId, clientSecret }
}

/**
 * GET {base}/gmail/v1/users/me/{path}, with the stored access token or one the SDK fetched
 * with the refresh token (kept in memory only); a 401 with refreshable credentials fetches
 * a new access token and tries once more.
 */
export async function gmailGet<T = any>(
  credentials: Record<string, unknown>,
  path: string,
  query: URLSearchParams,
  io: Io
): Promise<T> {
  const tokens = tokensOf(credentials)
  // Said here rather than by the SDK, which would name Google: the record is a Gmail one.
  if (!canRefresh(tokens) && !text(tokens.accessToken)) {
    throw new Error(
      'Gmail: the credentials need an access token, or a refresh token with the OAuth client ID and secret'
    )
  }
  const base = (text(credentials.baseUrl) || GMAIL_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const url = `${base}/gmail/v1/users/me/${path}${query.size ? `?${query}` : ''}`
  const response = await oauthRequest(
    providerOf(credentials),
    tokens,
    url,
    { headers: { accept: 'application/json' } },
    io
  )
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as {
      error?: { message?: string }
    } | null
    const reason = answer?.error?.message ?? `${response.status} ${response.statusText}`.trim()
    throw new Error(`Gmail answered ${response.status}: ${reason}`)
  }
  return (await response.json()) as T
}
