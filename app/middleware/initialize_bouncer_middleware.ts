import { policies } from '#policies/main'
import * as abilities from '#abilities/main'
import { Bouncer } from '@adonisjs/bouncer'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'

/** Creates the request's Bouncer for the signed-in user (on first use on public endpoints). */
function makeBouncer(ctx: HttpContext) {
  return new Bouncer(() => ctx.auth.user || null, abilities, policies).setContainerResolver(
    ctx.containerResolver
  )
}

const lazyBouncer = lazyContextProperty('bouncer', makeBouncer)

export default class InitializeBouncerMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isPublicApiRequest(ctx)) lazyBouncer(ctx)
    else ctx.bouncer = makeBouncer(ctx)
    return next()
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    bouncer: Bouncer<
      Exclude<HttpContext['auth']['user'], undefined>,
      typeof abilities,
      typeof policies
    >
  }
}
