import type { HttpContext } from '@adonisjs/core/http'
import {
  cancelTwoFactorSetup,
  confirmTwoFactorSetup,
  disableTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
} from '#actions/users/two_factor'
import { twoFactorCodeValidator } from '#validators/two_factor'
import { SESSION_RECORD_KEY } from '#services/auth/web_session_guard'

const SECURITY_TAB = '/settings/account/security'

/** Account settings, Security: the person's own two-factor sign-in (docs/security.md). */
export default class TwoFactorController {
  async setup({ auth, response }: HttpContext) {
    await startTwoFactorSetup(auth.getUserOrFail())
    return response.redirect(SECURITY_TAB)
  }

  async cancelSetup({ auth, response }: HttpContext) {
    await cancelTwoFactorSetup(auth.getUserOrFail())
    return response.redirect(SECURITY_TAB)
  }

  async confirm({ auth, request, response, session }: HttpContext) {
    const { code } = await request.validateUsing(twoFactorCodeValidator)
    const codes = await confirmTwoFactorSetup(
      auth.getUserOrFail(),
      code,
      session.get(SESSION_RECORD_KEY)
    )
    session.flash('recoveryCodes', codes)
    session.flash('toast', {
      type: 'success',
      title: 'Two-factor sign-in is on',
      description:
        'Your other signed-in browsers were signed out. Signing in again asks for a code.',
    })
    return response.redirect(SECURITY_TAB)
  }

  async regenerate({ auth, request, response, session }: HttpContext) {
    const { code } = await request.validateUsing(twoFactorCodeValidator)
    const codes = await regenerateRecoveryCodes(auth.getUserOrFail(), code)
    session.flash('recoveryCodes', codes)
    session.flash('toast', { type: 'success', title: 'New recovery codes made' })
    return response.redirect(SECURITY_TAB)
  }

  async disable({ auth, request, response, session }: HttpContext) {
    const { code } = await request.validateUsing(twoFactorCodeValidator)
    await disableTwoFactor(auth.getUserOrFail(), code)
    session.flash('toast', { type: 'success', title: 'Two-factor sign-in is off' })
    return response.redirect(SECURITY_TAB)
  }
}
