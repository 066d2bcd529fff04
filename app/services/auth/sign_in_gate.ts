import type { HttpContext } from '@adonisjs/core/http'
import type User from '#models/user'
import { track } from '#services/analytics/analytics'

/*
| The last step of every sign-in (magic link, OAuth): people with two-factor sign-in on are
| not signed in yet. Their session only remembers who is half-way (for 10 minutes) until the
| code page is passed; nothing else accepts that state (docs/security.md, "Two-factor
| sign-in").
*/

export const TWO_FACTOR_PENDING_KEY = 'two_factor_pending'
export const TWO_FACTOR_VERIFIED_KEY = 'two_factor_verified_at'
export const TWO_FACTOR_PAGE = '/signin/two-factor'
const PENDING_MS = 10 * 60 * 1000

interface PendingSignIn {
  userId: string
  redirectPath: string | null
  expiresAt: number
}

/** Signs the user in, or leaves the sign-in pending on the code page; returns where to go. */
export async function completeSignIn(ctx: HttpContext, user: User, redirectPath: string | null) {
  const guard = ctx.auth.use('web')
  if (!user.twoFactorEnabledAt) {
    clearTwoFactorState(ctx)
    await guard.login(user)
    track({ name: 'User logged in', userId: user.id })
    return redirectPath ?? '/bots'
  }
  // Whoever this browser had signed in is signed out: the half-way state is the only one.
  if (await guard.check()) await guard.logout()
  ctx.session.forget(TWO_FACTOR_VERIFIED_KEY)
  ctx.session.put(TWO_FACTOR_PENDING_KEY, {
    userId: user.id,
    redirectPath,
    expiresAt: Date.now() + PENDING_MS,
  } satisfies PendingSignIn)
  return TWO_FACTOR_PAGE
}

/** The sign-in waiting for its second factor, if any and not expired. */
export function pendingSignIn(ctx: HttpContext): PendingSignIn | null {
  const pending = ctx.session?.get(TWO_FACTOR_PENDING_KEY) as PendingSignIn | undefined
  if (!pending || typeof pending.userId !== 'string') return null
  if (typeof pending.expiresAt !== 'number' || pending.expiresAt < Date.now()) {
    ctx.session.forget(TWO_FACTOR_PENDING_KEY)
    return null
  }
  return pending
}

/** The code was right: the pending sign-in becomes a real one. */
export async function finishTwoFactorSignIn(ctx: HttpContext, user: User) {
  ctx.session.forget(TWO_FACTOR_PENDING_KEY)
  await ctx.auth.use('web').login(user)
  ctx.session.put(TWO_FACTOR_VERIFIED_KEY, new Date().toISOString())
  track({ name: 'User logged in', userId: user.id, properties: { twoFactor: true } })
}

/** GET /api/2fa/clearTwoFA and logout: no pending or verified second factor is left. */
export function clearTwoFactorState(ctx: HttpContext) {
  ctx.session?.forget(TWO_FACTOR_PENDING_KEY)
  ctx.session?.forget(TWO_FACTOR_VERIFIED_KEY)
}
