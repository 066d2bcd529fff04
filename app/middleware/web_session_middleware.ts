import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import SessionMiddleware from '@adonisjs/session/session_middleware'
import { isPublicApiRequest } from '#middleware/public_api_request'

/**
 * The cookie session, except on the public endpoints (app/services/public_api.ts). The
 * session middleware holds only its config, so it is made once rather than by the
 * container on every request (public ones included).
 */
let session: Promise<SessionMiddleware<any>> | undefined

export default class WebSessionMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isPublicApiRequest(ctx)) return next()
    session ??= app.container.make(SessionMiddleware)
    return (await session).handle(ctx, next)
  }
}
