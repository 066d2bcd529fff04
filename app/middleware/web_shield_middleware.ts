import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ShieldMiddleware from '@adonisjs/shield/shield_middleware'
import { isPublicSurfaceRequest } from '#middleware/public_api_request'

/**
 * Shield (CSRF, CSP, frame and transport headers), except on the visitor surface (public
 * endpoints, public bot page, /embed.js): it carries no session to protect and sets no
 * XSRF cookie; those answers only need nosniff (the public page sets its own CSP). Shield's middleware is made
 * per request by the container (with a dynamic import of edge.js each time), so it is made
 * only for the requests that use it: webhook calls under load skip that work.
 */
export default class WebShieldMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isPublicSurfaceRequest(ctx)) {
      ctx.response.header('X-Content-Type-Options', 'nosniff')
      return next()
    }
    const shield = await ctx.containerResolver.make(ShieldMiddleware)
    return shield.handle(ctx, next)
  }
}
