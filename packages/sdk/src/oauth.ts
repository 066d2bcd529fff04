import type { HttpClient } from './runner_types.js'
import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/oauth` (`#sdk/oauth` in the app; server): OAuth 2 bearer calls for plugins
 * whose credential holds an access token and, optionally, a refresh token with the OAuth
 * client's id and secret. The app renews an expired access token with the refresh token,
 * keeps renewed tokens in memory only, and on a 401 renews once and tries again.
 */

export interface OAuthCredentials {
  accessToken?: unknown
  refreshToken?: unknown
  clientId?: unknown
  clientSecret?: unknown
  /** When the stored access token ends (epoch ms), as the consent flow saved it. */
  expiresAt?: unknown
}

export interface OAuthIo {
  http: HttpClient
  signal?: AbortSignal
}

export interface OAuthProvider {
  /** Names the service in messages ("LinkedIn refused the token refresh: ..."). */
  name: string
  /** The token endpoint (the credential's own when it has one). */
  tokenUrl: string
}

export interface OAuthRequestInit {
  method?: string
  headers?: Record<string, string>
  body?: string
}

/** An OAuth 2 token endpoint's answer: the token and its lifetime, or why it was refused. */
export type TokenAnswer = { access_token: string; expires_in?: number } | { refusal: string }

/** The app's side of this module (see port.ts). */
export interface OAuthPort {
  canRefresh: typeof canRefresh
  oauthAccessToken: typeof oauthAccessToken
  oauthRequest: typeof oauthRequest
  forgetOAuthTokens: typeof forgetOAuthTokens
  readTokenAnswer: typeof readTokenAnswer
}

/** Whether the credentials hold what a renewal needs (refresh token, client id and secret). */
export function canRefresh(credentials: OAuthCredentials): boolean {
  return appPort('oauth').canRefresh(credentials)
}

/** The token to send: a renewed one still fresh, else the stored one, else a renewal. */
export async function oauthAccessToken(
  provider: OAuthProvider,
  credentials: OAuthCredentials,
  io: OAuthIo,
  renew = false
): Promise<string> {
  return appPort('oauth').oauthAccessToken(provider, credentials, io, renew)
}

/**
 * A request with `Authorization: Bearer {token}`; a 401 with refreshable credentials renews
 * the token and sends it once more. The caller reads the response.
 */
export async function oauthRequest(
  provider: OAuthProvider,
  credentials: OAuthCredentials,
  url: string,
  init: OAuthRequestInit,
  io: OAuthIo
): Promise<Response> {
  return appPort('oauth').oauthRequest(provider, credentials, url, init, io)
}

/** Forgets renewed tokens (tests that play a restart). */
export function forgetOAuthTokens(): void {
  appPort('oauth').forgetOAuthTokens()
}

/** Reads an OAuth 2 token endpoint's answer (RFC 6749 section 5). */
export async function readTokenAnswer(response: Response): Promise<TokenAnswer> {
  return appPort('oauth').readTokenAnswer(response)
}
