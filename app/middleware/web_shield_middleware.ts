import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ShieldMiddleware from '@adonisjs/shield/shield_middleware'
import { isPublicApiPath } from '#services/public_api'

/**
 * Shield (CSRF, frame and transport headers), except on the public endpoints: they carry
 * no session to protect, and JSON answers only need nosniff.
 */
@inject()
export default class WebShieldMiddleware {
  constructor(protected shield: ShieldMiddleware) {}

  handle(ctx: HttpContext, next: NextFn) {
    if (isPublicApiPath(ctx.request.url())) {
      ctx.response.header('X-Content-Type-Options', 'nosniff')
      return next()
    }
    return this.shield.handle(ctx, next)
  }
}
