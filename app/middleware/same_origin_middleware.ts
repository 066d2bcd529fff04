import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import AppError from '#exceptions/app_error'

/**
 * For the few GET routes that change session state because their interface is fixed as GET
 * (clearing the two-factor state on logout): only the app's own pages may call them. Browsers
 * say where a request comes from (`Sec-Fetch-Site`); a link or script on another site, which a
 * `SameSite=Lax` cookie would follow on a top-level GET, is refused. Clients that send no such
 * header (scripts, the API client) are not browsers carrying a visitor's cookie.
 */
export default class SameOriginMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const site = ctx.request.header('sec-fetch-site')
    if (site && site !== 'same-origin' && site !== 'none') throw AppError.forbidden()
    return next()
  }
}
