import { createSign } from 'node:crypto'
import type { OAuthTokens } from '#plugins/define_plugin'
import {
  GoogleApiError,
  type GoogleIo,
  type GoogleRequest,
  type ServiceAccount,
} from '../../../packages/sdk/src/google.js'
import { GOOGLE_TOKEN_URL } from '../../../packages/sdk/src/google_fields.js'
import { readTokenAnswer } from './oauth.js'

/**
 * The app's side of `#sdk/google` (`@flowcraft/sdk/google`): calls to Google's REST APIs as the Google plugins make them.
 * - OAuth credentials (Sheets, Calendar): the access token the credentials page's Connect
 *   stored, refreshed at the token URL with the refresh token when it has expired or when
 *   Google refuses it (once). Refreshed tokens stay in this process's memory: they are
 *   secrets and last an hour.
 * - Service accounts (Firebase): the service-account JSON's private key signs a JWT (RS256)
 *   that the JSON's token_uri trades for an access token (RFC 7523), cached until it expires.
 */

function text(value: unknown) {
  return typeof value === 'string' ? value.trim() : ''
}

const refreshed = new Map<string, { token: string; expiresAt: number }>()

/** Forgets the tokens kept in memory (tests that play a restart). */
export function forgetGoogleTokens() {
  refreshed.clear()
}

function oauthOf(credentials: Record<string, unknown>): Partial<OAuthTokens> {
  const oauth = credentials.oauth
  return oauth && typeof oauth === 'object' ? (oauth as Partial<OAuthTokens>) : {}
}

async function googleTokenOf(response: Response, what: string) {
  const answer = await readTokenAnswer(response)
  if ('refusal' in answer) {
    throw new GoogleApiError(`Google refused ${what}: ${answer.refusal.trim()}`, response.status)
  }
  return {
    token: answer.access_token,
    expiresAt: Date.now() + Math.max(60, Number(answer.expires_in) || 3600) * 1000,
  }
}

async function refreshAccessToken(credentials: Record<string, unknown>, io: GoogleIo) {
  const oauth = oauthOf(credentials)
  if (!oauth.refreshToken) {
    throw new GoogleApiError(
      'Google: the access token expired and there is no refresh token; Reconnect the credentials',
      401
    )
  }
  const response = await io.http.request(text(credentials.tokenUrl) || GOOGLE_TOKEN_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: oauth.refreshToken,
      client_id: text(credentials.clientId),
      client_secret: text(credentials.clientSecret),
    }).toString(),
    signal: io.signal,
  })
  const entry = await googleTokenOf(response, 'the token refresh')
  refreshed.set(oauth.refreshToken, entry)
  return entry.token
}

/** A usable access token of OAuth credentials: stored, refreshed in memory, or new. */
export async function googleAccessToken(
  credentials: Record<string, unknown>,
  io: GoogleIo,
  renew = false
): Promise<string> {
  const oauth = oauthOf(credentials)
  if (!oauth.accessToken) {
    throw new GoogleApiError(
      'Google: these credentials are not connected yet; use Connect on the credentials page',
      401
    )
  }
  if (renew) return refreshAccessToken(credentials, io)
  const cached = oauth.refreshToken ? refreshed.get(oauth.refreshToken) : undefined
  if (cached && cached.expiresAt - 60_000 > Date.now()) return cached.token
  const stored = !oauth.expiresAt || oauth.expiresAt - 60_000 > Date.now()
  if (stored && !cached) return oauth.accessToken
  return refreshAccessToken(credentials, io)
}

/** Google's error body `{ error: { code, message, status } }` as one sentence. */
async function failure(response: Response, service: string) {
  const answer = (await response.json().catch(() => null)) as {
    error?: { message?: string } | string
    error_description?: string
  } | null
  const reason =
    typeof answer?.error === 'object'
      ? answer.error.message
      : (answer?.error_description ?? answer?.error)
  return new GoogleApiError(
    `${service} answered ${response.status}: ${reason ?? response.statusText}`.trim(),
    response.status
  )
}

/** `{base}{path}` with a query string; undefined values are left out. */
export function googleUrl(base: string, path: string, query: GoogleRequest['query'] = {}) {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`)
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
  }
  return url.toString()
}

async function send(url: string, token: string, request: GoogleRequest, io: GoogleIo) {
  return io.http.request(url, {
    method: request.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: io.signal,
  })
}

/**
 * One call of a Google API with OAuth credentials: JSON in and out, a refused token refreshed
 * once; Google's error message thrown otherwise. A 204 answers null.
 */
export async function callGoogle<T = any>(
  credentials: Record<string, unknown>,
  service: string,
  url: string,
  request: GoogleRequest,
  io: GoogleIo
): Promise<T> {
  let response = await send(url, await googleAccessToken(credentials, io), request, io)
  if (response.status === 401 && oauthOf(credentials).refreshToken) {
    await response.body?.cancel().catch(() => {})
    response = await send(url, await googleAccessToken(credentials, io, true), request, io)
  }
  if (!response.ok) throw await failure(response, service)
  if (response.status === 204) return null as T
  const body = await response.text()
  return (body ? JSON.parse(body) : null) as T
}

/* ------------------------------------------------------------------ service accounts */

/** The fields of a service-account key file (JSON) the token exchange needs; clear errors. */
export function parseServiceAccount(json: unknown): ServiceAccount {
  let doc: Record<string, unknown>
  try {
    doc = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown>
  } catch {
    throw new Error('The service account JSON is not valid JSON')
  }
  if (!doc || typeof doc !== 'object') throw new Error('The service account JSON is empty')
  const missing = ['project_id', 'client_email', 'private_key'].filter((key) => !text(doc[key]))
  if (missing.length > 0) {
    throw new Error(`The service account JSON has no ${missing.join(', ')}`)
  }
  return {
    projectId: text(doc.project_id),
    clientEmail: text(doc.client_email),
    privateKey: String(doc.private_key),
    tokenUri: text(doc.token_uri) || GOOGLE_TOKEN_URL,
  }
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

/** The signed assertion (RFC 7523 section 2.1): RS256 over header.claims with the key. */
export function serviceAccountAssertion(account: ServiceAccount, scopes: readonly string[]) {
  const now = Math.floor(Date.now() / 1000)
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))
  const claims = base64url(
    JSON.stringify({
      iss: account.clientEmail,
      sub: account.clientEmail,
      scope: scopes.join(' '),
      aud: account.tokenUri,
      iat: now,
      exp: now + 3600,
    })
  )
  let signature: Buffer
  try {
    signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.privateKey)
  } catch {
    throw new Error('The private key of the service account JSON cannot sign (not a PEM RSA key)')
  }
  return `${header}.${claims}.${base64url(signature)}`
}

const serviceTokens = new Map<string, { token: string; expiresAt: number }>()

/** An access token for the service account, from its token URI; cached until near expiry. */
export async function serviceAccountToken(
  account: ServiceAccount,
  scopes: readonly string[],
  io: GoogleIo,
  renew = false
) {
  const key = `${account.tokenUri}\u0000${account.clientEmail}\u0000${scopes.join(' ')}`
  const cached = serviceTokens.get(key)
  if (!renew && cached && cached.expiresAt - 60_000 > Date.now()) return cached.token
  const response = await io.http.request(account.tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: serviceAccountAssertion(account, scopes),
    }).toString(),
    signal: io.signal,
  })
  const entry = await googleTokenOf(response, 'the service account')
  serviceTokens.set(key, entry)
  return entry.token
}

/** One call with a service account's token (a refused token is fetched again, once). */
export async function callGoogleAsService<T = any>(
  account: ServiceAccount,
  scopes: readonly string[],
  service: string,
  url: string,
  request: GoogleRequest,
  io: GoogleIo
): Promise<T> {
  let response = await send(url, await serviceAccountToken(account, scopes, io), request, io)
  if (response.status === 401) {
    await response.body?.cancel().catch(() => {})
    response = await send(url, await serviceAccountToken(account, scopes, io, true), request, io)
  }
  if (!response.ok) throw await failure(response, service)
  if (response.status === 204) return null as T
  const body = await response.text()
  return (body ? JSON.parse(body) : null) as T
}

/** Forgets cached service-account tokens (tests). */
export function forgetServiceAccountTokens() {
  serviceTokens.clear()
}
