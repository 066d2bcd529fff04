import type { HttpClient } from '#sdk/plugin'
import { oauthRequest, type OAuthCredentials, type OAuthProvider } from '#sdk/oauth'
import {
  LINKEDIN_DEFAULT_API_VERSION,
  LINKEDIN_DEFAULT_BASE_URL,
  LINKEDIN_DEFAULT_TOKEN_URL,
} from './index.js'

const text = (value: unknown) => String(value ?? '').trim()

export function providerOf(credentials: Record<string, unknown>): OAuthProvider {
  return { name: 'LinkedIn', tokenUrl: text(credentials.tokenUrl) || LINKEDIN_DEFAULT_TOKEN_URL }
}

/**
 * The tokens to call with: those Connect stored under `oauth` (docs/plugins.md, "OAuth
 * credentials") when the record was connected, else the pasted ones. The two are not mixed:
 * a pasted refresh token belongs to the pasted access token.
 */
export function tokensOf(credentials: Record<string, unknown>): OAuthCredentials {
  const oauth = credentials.oauth as Record<string, unknown> | undefined
  const client = { clientId: credentials.clientId, clientSecret: credentials.clientSecret }
  if (oauth && typeof oauth === 'object' && text(oauth.accessToken)) {
    return {
      ...client,
      accessToken: oauth.accessToken,
      refreshToken: oauth.refreshToken,
      expiresAt: oauth.expiresAt,
    }
  }
  return { ...client, accessToken: credentials.accessToken, refreshToken: credentials.refreshToken }
}

/**
 * A call to LinkedIn's API with the credential's OAuth token (renewed when expired): JSON,
 * the versioned REST API's headers (`LinkedIn-Version`, Rest.li protocol 2.0.0). A refusal
 * throws with LinkedIn's message.
 */
export async function callLinkedIn(
  credentials: Record<string, unknown>,
  path: string,
  {
    http,
    signal,
    method = 'GET',
    body,
  }: {
    http: HttpClient
    signal?: AbortSignal
    method?: string
    body?: unknown
  }
) {
  const base = (text(credentials.baseUrl) || LINKEDIN_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const response = await oauthRequest(
    providerOf(credentials),
    tokensOf(credentials),
    `${base}${path}`,
    {
      method,
      headers: {
        'accept': 'application/json',
        'linkedin-version': text(credentials.apiVersion) || LINKEDIN_DEFAULT_API_VERSION,
        'x-restli-protocol-version': '2.0.0',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    { http, signal }
  )
  const raw = await response.text()
  let answer: any = null
  try {
    answer = raw ? JSON.parse(raw) : null
  } catch {}
  if (!response.ok) {
    const reason = answer?.message ?? `${response.status} ${response.statusText}`.trim()
    // LinkedIn gives most apps no refresh token: an ended token needs the builder again.
    const next = response.status === 401 ? '; Reconnect the credentials or paste a new token' : ''
    throw new Error(`LinkedIn refused the request (${response.status}): ${reason}${next}`)
  }
  return { answer, headers: response.headers }
}

/** The member's URN (urn:li:person:{sub}) from the OpenID user info. */
export async function memberUrn(
  credentials: Record<string, unknown>,
  io: { http: HttpClient; signal?: AbortSignal }
) {
  const { answer } = await callLinkedIn(credentials, '/v2/userinfo', io)
  const sub = text(answer?.sub)
  if (!sub) throw new Error('LinkedIn did not say who the token belongs to (no sub in userinfo)')
  return { urn: `urn:li:person:${sub}`, name: text(answer?.name) }
}
