import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import OauthAccount from '#models/oauth_account'
import User from '#models/user'
import AppError from '#exceptions/app_error'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { completeSignIn } from '#services/auth/sign_in_gate'
import { enabledOAuthProviders, type OAuthProvider } from '#services/oauth_providers'

function providerFrom(ctx: HttpContext): OAuthProvider {
  const provider = ctx.params.provider as OAuthProvider
  if (!enabledOAuthProviders().includes(provider))
    throw AppError.notFound('Unknown sign-in provider')
  return provider
}

function fail(ctx: HttpContext, title: string, description?: string) {
  ctx.session.flash('toast', { type: 'error', title, description })
  return ctx.response.redirect('/signin')
}

export default class OauthController {
  async redirect(ctx: HttpContext) {
    return ctx.ally.use(providerFrom(ctx)).redirect()
  }

  async callback(ctx: HttpContext) {
    const provider = providerFrom(ctx)
    const driver = ctx.ally.use(provider)
    if (driver.accessDenied())
      return fail(ctx, 'Unauthorized', 'Access was denied. Try a different account.')
    if (driver.stateMisMatch())
      return fail(ctx, 'An error occurred', 'The sign-in request expired. Please try again.')
    if (driver.hasError()) return fail(ctx, 'An error occurred', driver.getError() ?? undefined)

    const profile = await driver.user()
    if (!profile.email) return fail(ctx, 'Email not found', 'Try a different account.')

    const linked = await OauthAccount.query()
      .where('provider', provider)
      .where('provider_user_id', String(profile.id))
      .first()
    let user: User
    if (linked) {
      user = await User.findOrFail(linked.userId)
    } else {
      const existing = await User.findBy('email', profile.email.toLowerCase())
      const otherLink = existing
        ? await OauthAccount.query().where('user_id', existing.id).first()
        : null
      if (existing && otherLink && otherLink.provider !== provider) {
        return fail(
          ctx,
          'An error occurred',
          'To confirm your identity, sign in with the account you used originally.'
        )
      }
      try {
        user = (
          await new FindOrCreateUser().handle(profile.email, {
            name: profile.name,
            image: profile.avatarUrl,
          })
        ).user
      } catch (error) {
        if (error instanceof AppError) return fail(ctx, error.title, error.description)
        throw error
      }
      await OauthAccount.create({ userId: user.id, provider, providerUserId: String(profile.id) })
    }
    user.lastSignedInAt = DateTime.now()
    await user.save()
    return ctx.response.redirect(await completeSignIn(ctx, user, null))
  }
}
