import type { HttpClient } from '#sdk/plugin'
import { TWILIO_DEFAULT_BASE_URL } from './index.js'

export interface TwilioCredentials {
  accountSid?: string
  authToken?: string
  phoneNumber?: string
  baseUrl?: string
}

/** Twilio's error body: `{ code, message, more_info, status }`. */
export class TwilioError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number
  ) {
    super(message)
    this.name = 'TwilioError'
  }
}

/**
 * A call to Twilio's REST API (2010-04-01) under the account: Basic auth with the account
 * SID and auth token, parameters form-encoded as Twilio takes them, JSON answers.
 */
export async function callTwilio<T = Record<string, unknown>>(
  credentials: TwilioCredentials,
  resource: string,
  { http, signal }: { http: HttpClient; signal?: AbortSignal },
  params?: Record<string, string | number | undefined>
): Promise<T> {
  const sid = credentials.accountSid?.trim()
  const token = credentials.authToken?.trim()
  if (!sid || !token) throw new Error('Twilio: the account SID or the auth token is missing')
  const base = (credentials.baseUrl?.trim() || TWILIO_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}${resource}`
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== '') body.set(key, String(value))
  }
  const response = await http.request(url, {
    method: params ? 'POST' : 'GET',
    headers: {
      authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
      accept: 'application/json',
      ...(params ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: params ? body.toString() : undefined,
    signal,
  })
  const answer = (await response.json().catch(() => null)) as
    (T & { code?: number; message?: string }) | null
  if (!response.ok) {
    const reason = answer?.message ?? `${response.status} ${response.statusText}`.trim()
    throw new TwilioError(`Twilio refused the request: ${reason}`, response.status, answer?.code)
  }
  return answer as T
}
