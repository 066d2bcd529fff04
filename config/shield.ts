import { defineConfig } from '@adonisjs/shield'
import { isPublicApiPath } from '#services/public_api'
import { carriesToken } from '#services/auth/web_session_guard'

const shieldConfig = defineConfig({
  csp: { enabled: false, directives: {}, reportOnly: false },
  csrf: {
    enabled: true,
    exceptRoutes: (ctx) =>
      // Only requests no cookie can authenticate: the public endpoints (chat API, webhooks)
      // and token calls, which the session guard refuses (app/services/auth/web_session_guard.ts).
      carriesToken(ctx) || isPublicApiPath(ctx.request.url()),
    enableXsrfCookie: true,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: true, maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})

export default shieldConfig
