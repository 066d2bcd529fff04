import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isPublicApiRequest } from '#middleware/public_api_request'

/** Loads the signed-in user, if any, without requiring one (public endpoints have none). */
export default class SilentAuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isPublicApiRequest(ctx)) await ctx.auth.check()
    return next()
  }
}
