import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'
// The package's middleware declares the type of `ctx.auth`; this one replaces it at run time.
import type {} from '@adonisjs/auth/initialize_auth_middleware'

/**
 * `ctx.auth` for every request (what @adonisjs/auth's initialize_auth_middleware does), with
 * the auth manager resolved once rather than from the container on each request. The app's
 * pages also get `auth` shared with their Edge view; the public endpoints sign nobody in
 * and render no view, so their authenticator is made only if something reads it (making
 * `ctx.view` alone builds an Edge renderer).
 */
function makeManager() {
  return app.container.make('auth.manager')
}

let manager: ReturnType<typeof makeManager> | undefined
/** The manager once made (the lazy property is read after handle() awaited it). */
let made: Awaited<ReturnType<typeof makeManager>> | undefined

const lazyAuth = lazyContextProperty('auth', (ctx) => made!.createAuthenticator(ctx))

export default class InitializeAuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    manager ??= makeManager()
    const auth = (made ??= await manager)
    if (isPublicApiRequest(ctx)) {
      lazyAuth(ctx)
      return next()
    }
    ctx.auth = auth.createAuthenticator(ctx)
    if ('view' in ctx) ctx.view.share({ auth: ctx.auth })
    return next()
  }
}
