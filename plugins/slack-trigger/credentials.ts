import type { CredentialsTestContext } from '#sdk/runner'
import { callSlack } from './api.js'

/**
 * Checks the bot token with auth.test. The signing secret cannot be checked by a call:
 * a wrong one shows as 401 answers to Slack's events.
 */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  if (!String(credentials.signingSecret ?? '').trim()) {
    return { ok: false, message: 'The signing secret is missing.' }
  }
  try {
    const me = await callSlack<{ team?: string; user?: string }>(credentials, 'auth.test', {
      http,
      signal,
    })
    return { ok: true, message: `Connected to ${me.team ?? 'Slack'} as ${me.user ?? 'the bot'}.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
