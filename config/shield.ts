import { defineConfig } from '@adonisjs/shield'
import { isPublicApiPath } from '#services/public_api'

const shieldConfig = defineConfig({
  csp: { enabled: false, directives: {}, reportOnly: false },
  csrf: {
    enabled: true,
    exceptRoutes: (ctx) =>
      // API-token calls and the public endpoints (chat API, webhooks) carry no session.
      !!ctx.request.header('authorization') || isPublicApiPath(ctx.request.url()),
    enableXsrfCookie: true,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: true, maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})

export default shieldConfig
