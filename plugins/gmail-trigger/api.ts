import type { HttpClient } from '#sdk/plugin'
import { GMAIL_DEFAULT_BASE_URL, GOOGLE_DEFAULT_TOKEN_URL } from './index.js'

interface Io {
  http: HttpClient
  signal: AbortSignal
}

/**
 * Access tokens fetched with a refresh token, in memory only (they are secrets, and an hour
 * long): keyed by client and refresh token, so every workflow of one account shares them.
 */
const refreshed = new Map<string, { token: string; expiresAt: number }>()

function text(value: unknown) {
  return String(value ?? '').trim()
}

function canRefresh(credentials: Record<string, unknown>) {
  return Boolean(
    text(credentials.refreshToken) && text(credentials.clientId) && text(credentials.clientSecret)
  )
}

/** A new access token from Google's token endpoint (grant_type=refresh_token). */
async function refreshAccessToken(credentials: Record<string, unknown>, { http, signal }: Io) {
  const url = text(credentials.tokenUrl) || GOOGLE_DEFAULT_TOKEN_URL
  const response = await http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: text(credentials.refreshToken),
      client_id: text(credentials.clientId),
      client_secret: text(credentials.clientSecret),
    }).toString(),
    signal,
  })
  const answer = (await response.json().catch(() => null)) as {
    access_token?: string
    expires_in?: number
    error?: string
    error_description?: string
  } | null
  if (!response.ok || !answer?.access_token) {
    const reason =
      answer?.error_description ?? answer?.error ?? `${response.status} ${response.statusText}`
    throw new Error(`Google refused the token refresh: ${reason}`.trim())
  }
  const entry = {
    token: answer.access_token,
    expiresAt: Date.now() + Math.max(60, Number(answer.expires_in) || 3600) * 1000,
  }
  refreshed.set(cacheKey(credentials), entry)
  return entry.token
}

function cacheKey(credentials: Record<string, unknown>) {
  return `${text(credentials.clientId)}\u0000${text(credentials.refreshToken)}`
}

/** The token to send: a fresh refreshed one, else the stored one, else a refresh. */
async function accessToken(credentials: Record<string, unknown>, io: Io, renew: boolean) {
  if (canRefresh(credentials)) {
    const cached = refreshed.get(cacheKey(credentials))
    if (!renew && cached && cached.expiresAt - 60_000 > Date.now()) return cached.token
    if (!renew && !cached && text(credentials.accessToken)) return text(credentials.accessToken)
    return refreshAccessToken(credentials, io)
  }
  if (text(credentials.accessToken)) return text(credentials.accessToken)
  throw new Error(
    'Gmail: the credentials need an access token, or a refresh token with the OAuth client ID and secret'
  )
}

/**
 * GET {base}/gmail/v1/users/me/{path}. A 401 with refreshable credentials fetches a new
 * access token and tries once more.
 */
export async function gmailGet<T = any>(
  credentials: Record<string, unknown>,
  path: string,
  query: URLSearchParams,
  io: Io
): Promise<T> {
  const base = (text(credentials.baseUrl) || GMAIL_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const url = `${base}/gmail/v1/users/me/${path}${query.size ? `?${query}` : ''}`
  const get = async (token: string) =>
    io.http.request(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: io.signal,
    })
  let response = await get(await accessToken(credentials, io, false))
  if (response.status === 401 && canRefresh(credentials)) {
    await response.body?.cancel().catch(() => {})
    response = await get(await accessToken(credentials, io, true))
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as {
      error?: { message?: string }
    } | null
    const reason = answer?.error?.message ?? `${response.status} ${response.statusText}`.trim()
    throw new Error(`Gmail answered ${response.status}: ${reason}`)
  }
  return (await response.json()) as T
}

/** Forgets refreshed tokens (tests that play a restart). */
export function forgetAccessTokens() {
  refreshed.clear()
}
