import { defineConfig } from '@adonisjs/shield'

/**
 * Public endpoints called from other sites (chat API, webhooks) use no cookie session,
 * so CSRF does not apply to them. Calls with an API token do not either.
 */
const PUBLIC_API = [
  /^\/api\/v1\/typebots\/[^/]+\/startChat/,
  /^\/api\/v1\/bots\/[^/]+\/startChat/,
  /^\/api\/v[12]\/sessions\//,
  /^\/api\/v1\/workflows\/[^/]+\/webhook/,
  /^\/api\/v1\/typebots\/[^/]+\/blocks\/[^/]+\/results\/[^/]+\/executeWebhook/,
]

const shieldConfig = defineConfig({
  csp: { enabled: false, directives: {}, reportOnly: false },
  csrf: {
    enabled: true,
    exceptRoutes: (ctx) =>
      !!ctx.request.header('authorization') || PUBLIC_API.some((r) => r.test(ctx.request.url())),
    enableXsrfCookie: true,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: true, maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})

export default shieldConfig
