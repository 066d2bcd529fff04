import type { CredentialsTestContext } from '#sdk/runner'
import { gmailGet } from './api.js'

/** Reads the mailbox's profile (refreshing the access token when it has to). Server only. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  try {
    const profile = await gmailGet<{ emailAddress?: string }>(
      credentials,
      'profile',
      new URLSearchParams(),
      { http, signal }
    )
    return { ok: true, message: `Connected to ${profile.emailAddress ?? 'the mailbox'}.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
