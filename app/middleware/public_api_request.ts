import type { HttpContext } from '@adonisjs/core/http'
import { isPublicApiPath } from '#services/public_api'

/*
| The public endpoints (app/services/public_api.ts: the chat API, webhook URLs) answer JSON
| to other sites, with no cookie session, no signed-in user and no page to render. The
| middleware the app needs for its own pages is skipped for them, or made lazy where a rare
| path (an error page, a validation message) may still reach for it: a chat turn then pays
| for none of it (see docs/benchmarks/chat.md).
*/

const PUBLIC = Symbol('publicApiRequest')

/** Whether the request is a public endpoint's; the path is tested once per request. */
export function isPublicApiRequest(ctx: HttpContext): boolean {
  const holder = ctx as unknown as Record<symbol, boolean | undefined>
  let value = holder[PUBLIC]
  if (value === undefined) {
    value = isPublicApiPath(ctx.request.url())
    holder[PUBLIC] = value
  }
  return value
}

/**
 * Defines `ctx[name]` as made on first use: the property turns into a plain value when it is
 * read (made then) or assigned.
 */
export function lazyContextProperty<K extends keyof HttpContext>(
  ctx: HttpContext,
  name: K,
  make: () => HttpContext[K]
) {
  const settle = (value: HttpContext[K]) => {
    Object.defineProperty(ctx, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: true,
    })
    return value
  }
  Object.defineProperty(ctx, name, {
    configurable: true,
    enumerable: true,
    get: () => settle(make()),
    set: (value: HttpContext[K]) => settle(value),
  })
}
