import type { CredentialsTestContext } from '#sdk/runner'
import { callTelegram } from './api.js'

/** Checks a bot token with getMe, which every valid token may call. Server only. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  try {
    const me = await callTelegram<{ username?: string; first_name?: string }>(
      credentials,
      'getMe',
      {},
      { http, signal }
    )
    return { ok: true, message: `Connected as @${me.username ?? me.first_name ?? 'bot'}.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
