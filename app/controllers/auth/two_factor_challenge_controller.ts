import type { HttpContext } from '@adonisjs/core/http'
import User from '#models/user'
import { recoveryCodesLeft, verifySecondFactor } from '#services/auth/two_factor'
import {
  clearTwoFactorState,
  finishTwoFactorSignIn,
  pendingSignIn,
  TWO_FACTOR_PENDING_KEY,
} from '#services/auth/sign_in_gate'
import { twoFactorCodeValidator } from '#validators/two_factor'

function expired(ctx: HttpContext) {
  ctx.session.forget(TWO_FACTOR_PENDING_KEY)
  ctx.session.flash('toast', {
    type: 'error',
    title: 'Your sign-in has expired',
    description: 'Ask for a new sign-in link.',
  })
  return ctx.response.redirect('/signin')
}

/**
 * The person half-way through signing in, while their second factor is still on. An admin's
 * reset (or their own turning it off elsewhere) ends the half-way sign-ins begun before it,
 * like every open session: the next link signs in alone (docs/security.md, "Two-factor
 * sign-in").
 */
async function pendingUser(ctx: HttpContext) {
  const pending = pendingSignIn(ctx)
  const user = pending ? await User.find(pending.userId) : null
  return pending && user?.twoFactorEnabledAt ? { pending, user } : null
}

/** The "enter your code" page between the magic link or OAuth and the app. */
export default class TwoFactorChallengeController {
  async show(ctx: HttpContext) {
    const found = await pendingUser(ctx)
    if (!found) return expired(ctx)
    const { user } = found
    return ctx.inertia.render('auth/two_factor', { email: user.email })
  }

  async verify(ctx: HttpContext) {
    const found = await pendingUser(ctx)
    if (!found) return expired(ctx)
    const { pending, user } = found
    const { code } = await ctx.request.validateUsing(twoFactorCodeValidator)
    const kind = await verifySecondFactor(user, code)
    if (kind === 'recovery') {
      ctx.session.flash('toast', {
        type: 'info',
        title: 'You signed in with a recovery code',
        description:
          (await recoveryCodesLeft(user.id)) > 2
            ? 'Each recovery code works once.'
            : 'Few recovery codes are left: make new ones in Settings, Security.',
      })
    }
    await finishTwoFactorSignIn(ctx, user)
    return ctx.response.redirect(pending.redirectPath ?? '/bots')
  }

  /**
   * GET /api/2fa/clearTwoFA: called on logout and by the
   * code page's "use another account"; forgets the pending or verified second factor.
   */
  async clear(ctx: HttpContext) {
    clearTwoFactorState(ctx)
    return ctx.response.json({ cleared: true })
  }
}
