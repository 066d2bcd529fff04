import type { CredentialsTestContext } from '#sdk/runner'
import { callTwilio, TwilioError } from './api.js'

/** Reads the account itself: authenticated, free, and it says whether the account is active. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  try {
    const account = await callTwilio<{ friendly_name?: string; status?: string }>(
      credentials,
      '.json',
      { http, signal }
    )
    if (account.status && account.status !== 'active') {
      return { ok: false, message: `The Twilio account is ${account.status}.` }
    }
    return { ok: true, message: `Connected to ${account.friendly_name ?? 'the Twilio account'}.` }
  } catch (error) {
    if (error instanceof TwilioError && error.status === 401) {
      return { ok: false, message: 'Twilio refused the account SID or the auth token.' }
    }
    return { ok: false, message: (error as Error).message }
  }
}
