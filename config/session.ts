import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, stores } from '@adonisjs/session'

/** How long a sign-in lasts without use; the server-side record expires with it (docs/security.md). */
export const SESSION_AGE = '30d'

/** The session cookie's name (public requests without it get no session: app/middleware). */
export const SESSION_COOKIE_NAME = 'flowcraft-session'

const sessionConfig = defineConfig({
  enabled: true,
  cookieName: SESSION_COOKIE_NAME,
  clearWithBrowser: false,
  age: SESSION_AGE,
  cookie: {
    path: '/',
    httpOnly: true,
    secure: app.inProduction && (env.get('APP_URL') ?? '').startsWith('https://'),
    sameSite: 'lax',
  },
  store: env.get('SESSION_DRIVER', 'cookie'),
  stores: {
    cookie: stores.cookie(),
  },
})

export default sessionConfig
