import type { HttpContext } from '@adonisjs/core/http'
import { isPublicApiPath } from '#services/public_api'
import { SESSION_COOKIE_NAME } from '#config/session'

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

/** Routes of the visitor surface beside the public endpoints (names in start/routes/). */
const PUBLIC_ROUTES = new Set([
  'viewer.show',
  'viewer.root',
  'embed.script',
  'embed.typebot',
  'preview.scriptRunner',
])

/**
 * Whether the request is the visitor surface: the public endpoints, the public bot page,
 * /embed.js, /typebot/web.js and the preview's script runner. Anonymous visitors get no session or CSRF
 * cookie there (docs/security.md), and bot-authored code on those pages finds none to
 * read. Needs the matched route: only for router middleware.
 */
export function isPublicSurfaceRequest(ctx: HttpContext): boolean {
  if (isPublicApiRequest(ctx)) return true
  const name = ctx.route?.name
  if (name === 'storage.file') {
    // A stored file opened by a visitor (a bot's image, a signed link) sets no cookie; a
    // member's request keeps its session, which opens the workspace's private files.
    return !SESSION_COOKIE.test(ctx.request.header('cookie') ?? '')
  }
  return !!name && PUBLIC_ROUTES.has(name)
}

const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE_NAME}=`)

/**
 * An installer that defines `ctx[name]` as made on first use: the property turns into a
 * plain value when it is read (made then) or assigned.
 *
 * Every context gets the same getter and setter (they find the context as `this`), made
 * once here. An accessor made per request, as a closure over that request's context, kept
 * the whole request (context, response, everything a turn had read) alive through V8's
 * young-generation collections until the next full one: measured on a public endpoint
 * that answers `{}`, 4.7 KB promoted to the old generation per request with such a
 * closure, none with the shared accessor (docs/benchmarks/chat.md, "Accessors per
 * request"). The same object-literal `get x() {}` per call does it too.
 */
export function lazyContextProperty<K extends keyof HttpContext>(
  name: K,
  make: (ctx: HttpContext) => HttpContext[K]
): (ctx: HttpContext) => void {
  function settle(ctx: HttpContext, value: HttpContext[K]) {
    Object.defineProperty(ctx, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: true,
    })
    return value
  }
  const accessor: PropertyDescriptor = {
    configurable: true,
    enumerable: true,
    get(this: HttpContext) {
      return settle(this, make(this))
    },
    set(this: HttpContext, value: HttpContext[K]) {
      settle(this, value)
    },
  }
  return (ctx) => {
    Object.defineProperty(ctx, name, accessor)
  }
}
