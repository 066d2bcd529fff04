import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import SessionMiddleware from '@adonisjs/session/session_middleware'
import { isPublicSurfaceRequest } from '#middleware/public_api_request'

/**
 * The cookie session, except on the visitor surface (public endpoints, public bot page,
 * /embed.js: isPublicSurfaceRequest): a visitor gets no cookie there. The
 * session middleware holds only its config, so it is made once rather than by the
 * container on every request (public ones included).
 */
let session: Promise<SessionMiddleware<any>> | undefined

export default class WebSessionMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isPublicSurfaceRequest(ctx)) return next()
    session ??= app.container.make(SessionMiddleware)
    return (await session).handle(ctx, next)
  }
}
