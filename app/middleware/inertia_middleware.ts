import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import InertiaMiddleware from '@adonisjs/inertia/inertia_middleware'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'

/**
 * Inertia for the app's pages. The public endpoints render no page, but an error on one may
 * still reach a status page (app/exceptions/handler.ts): `ctx.inertia` is made for them
 * only when it is read.
 */
let inertia: Promise<InertiaMiddleware> | undefined
/** The package's middleware once made (the lazy property is read after handle() awaited it). */
let made: InertiaMiddleware | undefined

const done = async () => {}

const lazyInertia = lazyContextProperty('inertia', (ctx) => {
  // The package's handle() sets ctx.inertia synchronously before awaiting its next().
  void made!.handle(ctx, done)
  return ctx.inertia
})

export default class AppInertiaMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    inertia ??= app.container.make(InertiaMiddleware)
    const middleware = (made ??= await inertia)
    if (!isPublicApiRequest(ctx)) return middleware.handle(ctx, next)
    lazyInertia(ctx)
    return next()
  }
}
