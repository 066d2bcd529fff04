import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/** Developer pages (the dev mailbox) never exist in production. */
export default class DevOnlyMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (app.inProduction) return ctx.response.notFound('Not found')
    return next()
  }
}
