import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isPublicSurfaceRequest } from '#middleware/public_api_request'

/** Loads the signed-in user, if any, without requiring one (the visitor surface has none). */
export default class SilentAuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isPublicSurfaceRequest(ctx)) await ctx.auth.check()
    return next()
  }
}
