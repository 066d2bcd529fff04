import { defineConfig } from '@adonisjs/cors'

/**
 * The public JSON API (chat and token-authenticated calls) may be called from any origin;
 * cookies are never sent cross-origin.
 */
const corsConfig = defineConfig({
  enabled: true,
  origin: (requestOrigin) => !!requestOrigin,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: [],
  credentials: false,
  maxAge: 90,
})

export default corsConfig
