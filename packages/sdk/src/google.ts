import type { HttpClient } from './runner_types.js'
import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/google` (`#sdk/google` in the app; server): calls to Google's REST APIs as
 * the Google plugins make them, with the credentials' OAuth tokens (Sheets, Calendar: the
 * app refreshes an expired or refused token once) or a service account (Firebase: a signed
 * assertion traded for a token). Tokens the app obtains stay in its memory.
 */

export * from './google_fields.js'

export interface GoogleIo {
  http: HttpClient
  signal?: AbortSignal
}

export interface GoogleRequest {
  method?: string
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
}

/** The fields of a service-account key file (JSON) the token exchange needs. */
export interface ServiceAccount {
  projectId: string
  clientEmail: string
  privateKey: string
  tokenUri: string
}

/** Google refused a call or a token: its message and HTTP status. */
export class GoogleApiError extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message)
  }
}

/** The app's side of this module (see port.ts). */
export interface GooglePort {
  forgetGoogleTokens: typeof forgetGoogleTokens
  googleAccessToken: typeof googleAccessToken
  googleUrl: typeof googleUrl
  callGoogle: typeof callGoogle
  parseServiceAccount: typeof parseServiceAccount
  serviceAccountAssertion: typeof serviceAccountAssertion
  serviceAccountToken: typeof serviceAccountToken
  callGoogleAsService: typeof callGoogleAsService
  forgetServiceAccountTokens: typeof forgetServiceAccountTokens
}

/** Forgets the OAuth tokens the app keeps in memory (tests that play a restart). */
export function forgetGoogleTokens(): void {
  appPort('google').forgetGoogleTokens()
}

/** A usable access token of OAuth credentials: stored, refreshed in memory, or new. */
export async function googleAccessToken(
  credentials: Record<string, unknown>,
  io: GoogleIo,
  renew = false
): Promise<string> {
  return appPort('google').googleAccessToken(credentials, io, renew)
}

/** `{base}{path}` with a query string; undefined values are left out. */
export function googleUrl(base: string, path: string, query: GoogleRequest['query'] = {}): string {
  return appPort('google').googleUrl(base, path, query)
}

/**
 * One call of a Google API with OAuth credentials: JSON in and out, a refused token refreshed
 * once; Google's error message thrown (GoogleApiError) otherwise. A 204 answers null.
 */
export async function callGoogle<T = any>(
  credentials: Record<string, unknown>,
  service: string,
  url: string,
  request: GoogleRequest,
  io: GoogleIo
): Promise<T> {
  return appPort('google').callGoogle<T>(credentials, service, url, request, io)
}

/** The fields of a service-account key file (JSON text or value); clear errors. */
export function parseServiceAccount(json: unknown): ServiceAccount {
  return appPort('google').parseServiceAccount(json)
}

/** The signed assertion (RS256) a service account trades for a token. */
export function serviceAccountAssertion(
  account: ServiceAccount,
  scopes: readonly string[]
): string {
  return appPort('google').serviceAccountAssertion(account, scopes)
}

/** An access token for the service account, from its token URI; cached until near expiry. */
export async function serviceAccountToken(
  account: ServiceAccount,
  scopes: readonly string[],
  io: GoogleIo,
  renew = false
): Promise<string> {
  return appPort('google').serviceAccountToken(account, scopes, io, renew)
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
  return appPort('google').callGoogleAsService<T>(account, scopes, service, url, request, io)
}

/** Forgets cached service-account tokens (tests). */
export function forgetServiceAccountTokens(): void {
  appPort('google').forgetServiceAccountTokens()
}
