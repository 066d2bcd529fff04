import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'

/**
 * Files under public/, served for GET and HEAD only (what serve-static serves anyway). The
 * package's container binding makes a new file server (serve-static with its options) for
 * every request, API calls included: here it is made once, and other methods skip it.
 */
let server: Promise<StaticMiddleware> | undefined

export default class PublicFilesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.request.method
    if (method !== 'GET' && method !== 'HEAD') return next()
    server ??= app.container.make(StaticMiddleware)
    return (await server).handle(ctx, next)
  }
}
