import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { errors as authErrors } from '@adonisjs/auth'

/**
 * /api/v1 accepts an API token (Authorization: Bearer) or, for the app's own pages,
 * the browser session.
 */
export default class ApiAuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const viaToken = !!ctx.request.header('authorization')
    try {
      await ctx.auth.authenticateUsing(viaToken ? ['api'] : ['web'])
    } catch (error) {
      // Only a refused identity is a 401: a database that cannot be reached to check the
      // token is an outage (503, app/exceptions/handler.ts), not a bad token.
      if (!(error instanceof authErrors.E_UNAUTHORIZED_ACCESS)) throw error
      return ctx.response.unauthorized({
        message: 'Unauthorized',
        description: viaToken ? 'Invalid API token' : 'Sign in or send an API token',
      })
    }
    return next()
  }
}
