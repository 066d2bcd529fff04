import type { HttpContext } from '@adonisjs/core/http'
import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import env from '#start/env'
import AppError from '#exceptions/app_error'
import SendMagicLink, { safeRedirectPath } from '#actions/auth/send_magic_link'
import ConsumeMagicLink from '#actions/auth/consume_magic_link'
import { registerValidator, signInValidator } from '#validators/auth'
import { closeAllSessions } from '#services/auth/user_sessions'
import { clearTwoFactorState, completeSignIn } from '#services/auth/sign_in_gate'

/**
 * Sign-in links per e-mail address and, separately, per client IP address in 15 minutes
 * (docs/security.md, "Request limits"): many addresses from one client, or one address from
 * many clients, both run out. The client address comes from proxy headers only when they
 * are sent by a proxy listed in TRUSTED_PROXIES (config/app.ts).
 */
function signInLimiters() {
  return {
    email: limiter.use({ requests: env.get('SIGNIN_RATE_LIMIT') ?? 10, duration: '15 mins' }),
    ip: limiter.use({ requests: env.get('SIGNIN_IP_RATE_LIMIT') ?? 20, duration: '15 mins' }),
  }
}

export const signInLimitKeys = (ip: string, email: string) => ({
  ip: `signin_ip_${ip}`,
  email: `signin_email_${email.toLowerCase()}`,
})

export default class SignInController {
  async show({ inertia, request }: HttpContext) {
    return inertia.render('auth/signin', {
      mode: 'signin',
      redirectPath: safeRedirectPath(request.qs().redirectPath) ?? null,
      email: typeof request.qs().email === 'string' ? request.qs().email : null,
      signupDisabled: env.get('DISABLE_SIGNUP'),
    })
  }

  async showRegister({ inertia, request }: HttpContext) {
    return inertia.render('auth/signin', {
      mode: 'register',
      redirectPath: safeRedirectPath(request.qs().redirectPath) ?? null,
      email: typeof request.qs().email === 'string' ? request.qs().email : null,
      signupDisabled: env.get('DISABLE_SIGNUP'),
    })
  }

  async store(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(signInValidator)
    await this.sendLink(ctx, payload.email, null, payload.redirectPath)
    return ctx.response.redirect(`/signin/check-email?email=${encodeURIComponent(payload.email)}`)
  }

  async register(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(registerValidator)
    await this.sendLink(ctx, payload.email, payload.name ?? null, payload.redirectPath)
    return ctx.response.redirect(`/signin/check-email?email=${encodeURIComponent(payload.email)}`)
  }

  private async sendLink(
    ctx: HttpContext,
    email: string,
    name: string | null,
    redirectPath?: string
  ) {
    const limits = signInLimiters()
    const keys = signInLimitKeys(ctx.request.ip(), email)
    // The client's budget is spent first: an exhausted client spends no address's budget.
    let allowed = true
    for (const [which, key] of [
      ['ip', keys.ip],
      ['email', keys.email],
    ] as const) {
      try {
        await limits[which].consume(key)
      } catch (error) {
        if (!(error instanceof limiterErrors.E_TOO_MANY_REQUESTS)) throw error
        allowed = false
        break
      }
    }
    if (!allowed) {
      throw new AppError('Too many requests. Try again later', {
        status: 429,
        code: 'E_TOO_MANY_REQUESTS',
        field: 'email',
      })
    }
    await new SendMagicLink().handle({ email, name, redirectPath })
  }

  async checkEmail({ inertia, request }: HttpContext) {
    return inertia.render('auth/check_email', { email: String(request.qs().email ?? '') })
  }

  async magic(ctx: HttpContext) {
    try {
      const { user, redirectPath } = await new ConsumeMagicLink().handle(ctx.params.token)
      return ctx.response.redirect(await completeSignIn(ctx, user, redirectPath ?? null))
    } catch (error) {
      if (error instanceof AppError) {
        ctx.session.flash('toast', {
          type: 'error',
          title: error.title,
          description: error.description,
        })
        return ctx.response.redirect('/signin')
      }
      throw error
    }
  }

  async forgotPassword({ inertia }: HttpContext) {
    return inertia.render('auth/password_help', { page: 'forgot' })
  }

  async resetPassword({ inertia }: HttpContext) {
    return inertia.render('auth/password_help', { page: 'reset' })
  }

  async logout(ctx: HttpContext) {
    const { auth, session, response } = ctx
    clearTwoFactorState(ctx)
    await auth.use('web').logout()
    session.forget('currentWorkspaceId')
    session.flash('toast', { type: 'success', title: 'Logged out successfully' })
    return response.redirect('/signin')
  }

  /** Account settings, "Sign out of all devices": every session of the user ends, this one too. */
  async logoutEverywhere(ctx: HttpContext) {
    const { auth, session, response } = ctx
    const user = auth.getUserOrFail()
    clearTwoFactorState(ctx)
    await closeAllSessions(user.id)
    await auth.use('web').logout()
    session.forget('currentWorkspaceId')
    session.flash('toast', { type: 'success', title: 'Signed out of all devices' })
    return response.redirect('/signin')
  }
}
