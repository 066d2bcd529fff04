import db from '@adonisjs/lucid/services/db'
import limiter from '@adonisjs/limiter/services/main'
import { generate } from 'otplib'
import env from '#start/env'
import User from '#models/user'
import SendMagicLink from '#actions/auth/send_magic_link'
import { openSecret, twoFactorLimitKey } from '#services/auth/two_factor'
import { openSession } from '#services/auth/user_sessions'
import { SESSION_RECORD_KEY } from '#services/auth/web_session_guard'
import { lastMagicLink } from '#tests/helpers'
import type { ApiClient } from '@japa/api-client'

export type Session = Record<string, any>

/** A code of the user's app `steps` periods from now (the server accepts one either side). */
export async function codeOf(user: User, steps = 0) {
  await user.refresh()
  const secret = openSecret(user.twoFactorSecret!)
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 })
}

/** Forgets which step was used last, so that the next test's code is not a replay. */
export async function forgetLastStep(user: User) {
  await db.from('users').where('id', user.id).update({ two_factor_last_step: null })
  await user.refresh()
}

export const settingsPost = (client: ApiClient, user: User, path: string, code?: string) =>
  client
    .post(`/settings/account/two-factor/${path}`)
    .form(code === undefined ? {} : { code })
    .loginAs(user)
    .withCsrfToken()
    .redirects(0)

/** Sets up and confirms 2FA through the settings routes; returns the recovery codes. */
export async function enable(client: ApiClient, user: User): Promise<string[]> {
  ;(await settingsPost(client, user, 'setup')).assertStatus(302)
  const confirm = await settingsPost(client, user, 'confirm', await codeOf(user, -1))
  confirm.assertHeader('location', '/settings/account/security')
  const codes = confirm.flashMessages().recoveryCodes as string[]
  await forgetLastStep(user)
  return codes
}

/** Opens a fresh magic link of the user; returns the answer and its session. */
export async function openMagicLink(client: ApiClient, user: User, redirectPath?: string) {
  await new SendMagicLink().handle({ email: user.email, redirectPath })
  const { path } = await lastMagicLink(user.email)
  const response = await client.get(path).redirects(0)
  return { response, session: response.session() as Session }
}

export function submitCode(client: ApiClient, session: Session, code: string) {
  return client
    .post('/signin/two-factor')
    .form({ code })
    .withSession(session)
    .withCsrfToken()
    .redirects(0)
}

/** Another browser of a signed-in user, for the test client (memory session store). */
export async function device(user: User): Promise<Session> {
  const record = await openSession(user.id)
  return { auth_web: user.id, [SESSION_RECORD_KEY]: record.id }
}

export async function resetAttempts(user: User) {
  await limiter
    .use({ requests: env.get('TWO_FACTOR_RATE_LIMIT') ?? 5, duration: '15 mins' })
    .delete(twoFactorLimitKey(user.id))
}
