import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { Secret } from '@adonisjs/core/helpers'
import { defineConfig } from '@adonisjs/core/http'
import { trustedProxies } from '#services/trusted_proxies'

/**
 * The app key encrypts cookies and signs sessions.
 */
export const appKey = new Secret(env.get('APP_KEY'))

/**
 * Public URL used in e-mailed links.
 */
export const appUrl = (
  env.get('APP_URL') || `http://${env.get('HOST')}:${env.get('PORT')}`
).replace(/\/$/, '')

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  // Proxy headers count only from TRUSTED_PROXIES (none by default; docs/security.md).
  trustProxy: trustedProxies(env.get('TRUSTED_PROXIES')),
  useAsyncLocalStorage: false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction && appUrl.startsWith('https://'),
    sameSite: 'lax',
  },
})
