import { defineConfig } from '@adonisjs/cors'

/**
 * The JSON API under /api (the public chat API, webhooks, token-authenticated calls) may be
 * called from any origin, `null` included: the public bot page runs in an opaque origin
 * when it shares the app's host (docs/security.md). Never with credentials, so no browser
 * shows another site a response made with a builder's cookies. The builder's own pages
 * and forms answer no cross-origin request at all.
 */
const corsConfig = defineConfig({
  enabled: true,
  origin: (requestOrigin, ctx) => !!requestOrigin && ctx.request.url().startsWith('/api/'),
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: [],
  credentials: false,
  maxAge: 90,
})

export default corsConfig
