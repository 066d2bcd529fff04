import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * /api/v1 accepts an API token (Authorization: Bearer) or, for the app's own pages,
 * the browser session.
 */
export default class ApiAuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const viaToken = !!ctx.request.header('authorization')
    try {
      await ctx.auth.authenticateUsing(viaToken ? ['api'] : ['web'])
    } catch {
      return ctx.response.unauthorized({
        message: 'Unauthorized',
        description: viaToken ? 'Invalid API token' : 'Sign in or send an API token',
      })
    }
    return next()
  }
}
