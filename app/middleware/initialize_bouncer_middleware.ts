import { policies } from '#policies/main'
import * as abilities from '#abilities/main'
import { Bouncer } from '@adonisjs/bouncer'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'

/** Creates the request's Bouncer for the signed-in user (on first use on public endpoints). */
export default class InitializeBouncerMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const make = () =>
      new Bouncer(() => ctx.auth.user || null, abilities, policies).setContainerResolver(
        ctx.containerResolver
      )
    if (isPublicApiRequest(ctx)) lazyContextProperty(ctx, 'bouncer', make)
    else ctx.bouncer = make()
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
