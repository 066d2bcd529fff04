import type { HttpContext } from '@adonisjs/core/http'
import AppError from '#exceptions/app_error'
import { FinishCredentialOAuth } from '#actions/credentials/finish_credential_o_auth'
import { StartCredentialOAuth } from '#actions/credentials/start_credential_o_auth'
import { type PendingOAuth } from '#actions/credentials/oauth'

const SESSION_KEY = 'credentialOAuth'
const CREDENTIALS_PAGE = '/settings/account/credentials'

/**
 * Connect on an OAuth credential: off to the provider's consent page, and back. Both ends
 * land on the credentials page with a toast, so a refused consent reads as such.
 */
export default class CredentialOAuthController {
  async authorize(ctx: HttpContext) {
    try {
      const { url, pending } = await new StartCredentialOAuth().handle(
        ctx.auth.user!,
        ctx.params.id
      )
      ctx.session.put(SESSION_KEY, pending)
      return ctx.response.redirect(url)
    } catch (error) {
      return this.#back(ctx, error)
    }
  }

  async callback(ctx: HttpContext) {
    const pending = ctx.session.pull(SESSION_KEY) as PendingOAuth | undefined
    try {
      const record = await new FinishCredentialOAuth().handle(
        ctx.auth.user!,
        pending,
        ctx.request.qs()
      )
      ctx.session.flash('toast', {
        type: 'success',
        title: 'Account connected',
        description: record.name,
      })
      return ctx.response.redirect(CREDENTIALS_PAGE)
    } catch (error) {
      return this.#back(ctx, error)
    }
  }

  #back(ctx: HttpContext, error: unknown) {
    if (!(error instanceof AppError) || error.status === 404) throw error
    ctx.session.flash('toast', {
      type: 'error',
      title: error.title,
      ...(error.description ? { description: error.description } : {}),
    })
    return ctx.response.redirect(CREDENTIALS_PAGE)
  }
}
