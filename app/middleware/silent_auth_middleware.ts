import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isPublicApiPath } from '#services/public_api'

/** Loads the signed-in user, if any, without requiring one (public endpoints have none). */
export default class SilentAuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isPublicApiPath(ctx.request.url())) await ctx.auth.check()
    return next()
  }
}
