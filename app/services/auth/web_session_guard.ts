import type { HttpContext } from '@adonisjs/core/http'
import { errors, symbols } from '@adonisjs/auth'
import { sessionGuard, type SessionGuard } from '@adonisjs/auth/session'
import type { GuardConfigProvider } from '@adonisjs/auth/types'
import type { SessionGuardEvents } from '@adonisjs/auth/types/session'
import type User from '#models/user'
import { closeSession, isSessionLive, openSession } from '#services/auth/user_sessions'

/** Session key holding the id of the server-side session record. */
export const SESSION_RECORD_KEY = 'auth_session'

/**
 * A request that carries an Authorization header is authenticated by its token or not at
 * all: its cookies sign nobody in (and CSRF, which protects cookies, does not apply to it).
 */
export function carriesToken(ctx: HttpContext) {
  return ctx.request.header('authorization') !== undefined
}

/**
 * Whether the matched route authenticates by API token (the `apiAuth` middleware, /api/v1).
 * Only there does an Authorization header mean the cookies are not read, so only there may
 * CSRF be skipped for it (config/shield.ts): a session route such as /signin/two-factor
 * reads its session whatever other headers come along.
 */
export function routeTakesApiToken(ctx: HttpContext) {
  const middleware = ctx.route?.middleware.all()
  if (!middleware) return false
  for (const entry of middleware) {
    if (typeof entry !== 'function' && entry.name === 'apiAuth') return true
  }
  return false
}

type Inner = SessionGuard<boolean, any>

function unauthorized() {
  return new errors.E_UNAUTHORIZED_ACCESS('Invalid or expired user session', {
    guardDriverName: 'session',
  })
}

/**
 * The browser-session guard (docs/security.md, "Sessions"): the package's session guard,
 * plus a server-side record per sign-in checked on every request (sign-out ends it for every
 * copy of the cookie), and no session sign-in for requests that carry a token.
 */
export class WebSessionGuard {
  declare [symbols.GUARD_KNOWN_EVENTS]: SessionGuardEvents<User>
  readonly driverName = 'session' as const
  authenticationAttempted = false
  isAuthenticated = false
  isLoggedOut = false
  user?: User

  constructor(
    private ctx: HttpContext,
    private inner: Inner
  ) {}

  getUserOrFail(): User {
    if (!this.user) throw unauthorized()
    return this.user
  }

  async authenticate(): Promise<User> {
    if (this.authenticationAttempted) return this.getUserOrFail()
    this.authenticationAttempted = true
    // Public endpoints run without a session (app/middleware/web_session_middleware.ts).
    if (carriesToken(this.ctx) || !this.ctx.session) throw unauthorized()
    const user = (await this.inner.authenticate()) as User
    if (!(await isSessionLive(this.ctx.session.get(SESSION_RECORD_KEY), user.id))) {
      this.ctx.session.forget(this.inner.sessionKeyName)
      this.ctx.session.forget(SESSION_RECORD_KEY)
      throw unauthorized()
    }
    this.user = user
    this.isAuthenticated = true
    return user
  }

  async check(): Promise<boolean> {
    try {
      await this.authenticate()
      return true
    } catch (error) {
      if (error instanceof errors.E_UNAUTHORIZED_ACCESS) return false
      throw error
    }
  }

  async login(user: User) {
    await this.inner.login(user)
    const record = await openSession(user.id)
    this.ctx.session.put(SESSION_RECORD_KEY, record.id)
    this.user = user
    this.isAuthenticated = true
    this.isLoggedOut = false
    this.authenticationAttempted = true
  }

  /** Ends this session on the server as well: a copy of the cookie stops working. */
  async logout() {
    // A token call never acts on the browser's session (it is exempt from CSRF).
    if (this.ctx.session && !carriesToken(this.ctx)) {
      await closeSession(this.ctx.session.get(SESSION_RECORD_KEY))
      this.ctx.session.forget(SESSION_RECORD_KEY)
      await this.inner.logout()
    }
    this.user = undefined
    this.isAuthenticated = false
    this.isLoggedOut = true
  }

  /** Test clients (loginAs) get a real session record, as a sign-in would make. */
  async authenticateAsClient(user: User) {
    const record = await openSession(user.id)
    const client = await this.inner.authenticateAsClient(user)
    return { ...client, session: { ...client.session, [SESSION_RECORD_KEY]: record.id } }
  }
}

export function webSessionGuard(
  config: Parameters<typeof sessionGuard>[0]
): GuardConfigProvider<(ctx: HttpContext) => WebSessionGuard> {
  const inner = sessionGuard(config)
  return {
    async resolver(name, app) {
      const make = await inner.resolver(name, app)
      return (ctx) => new WebSessionGuard(ctx, make(ctx) as Inner)
    },
  }
}
