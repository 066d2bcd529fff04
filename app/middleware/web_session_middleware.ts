import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import SessionMiddleware from '@adonisjs/session/session_middleware'
import { isPublicApiPath } from '#services/public_api'

/** The cookie session, except on the public endpoints (app/services/public_api.ts). */
@inject()
export default class WebSessionMiddleware {
  constructor(protected session: SessionMiddleware<any>) {}

  handle(ctx: HttpContext, next: NextFn) {
    if (isPublicApiPath(ctx.request.url())) return next()
    return this.session.handle(ctx, next)
  }
}
