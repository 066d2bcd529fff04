import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * Pages need a session. A visitor without one goes to /signin with the wanted page in
 * redirectPath; JSON callers get 401.
 */
export default class AuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (await ctx.auth.use('web').check()) return next()
    if (ctx.request.accepts(['html', 'json']) === 'json' && !ctx.request.header('x-inertia')) {
      return ctx.response.unauthorized({ message: 'Unauthorized' })
    }
    const wanted = ctx.request.url(true)
    const target =
      wanted && wanted !== '/' ? `/signin?redirectPath=${encodeURIComponent(wanted)}` : '/signin'
    if (ctx.request.header('x-inertia')) return ctx.inertia.location(target)
    return ctx.response.redirect(target)
  }
}
