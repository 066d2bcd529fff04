import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/shield'
import { isPublicApiPath } from '#services/public_api'
import { viewerBaseUrl } from '#services/public_surface'
import { carriesToken, routeTakesApiToken } from '#services/auth/web_session_guard'
import { supportScriptSource } from '#services/support_widget'

/** The viewer host, where the editor's share dialog and previews may point. */
const viewer = () => viewerBaseUrl() || "'self'"

/**
 * The builder's pages (dashboard, editors, settings): scripts only from this origin and
 * the inline ones the layout writes with the request's nonce, so that nothing a bot, a
 * result or a plugin put in the page can run with the builder's session. Styles stay
 * inline-capable (React style attributes, Vite's injected CSS in development); images,
 * media and embed bubbles of the editor preview load from anywhere, in frames that cannot
 * reach this page. The public bot page and the preview's script runner set their own
 * sandbox policy (docs/security.md). The support chat's embed library is the one script
 * from elsewhere, by its exact URL (docs/onboarding.md). Development adds Vite's HMR socket.
 */
const shieldConfig = defineConfig({
  csp: {
    enabled: true,
    reportOnly: false,
    directives: {
      defaultSrc: [`'self'`],
      scriptSrc: [`'self'`, '@nonce', supportScriptSource],
      styleSrc: [`'self'`, `'unsafe-inline'`],
      imgSrc: ['*', 'data:', 'blob:'],
      mediaSrc: ['*', 'data:', 'blob:'],
      fontSrc: [`'self'`, 'data:'],
      connectSrc: [`'self'`, viewer, ...(app.inProduction ? [] : ['ws:', 'wss:'])],
      frameSrc: ['*', 'blob:'],
      workerSrc: [`'self'`, 'blob:'],
      objectSrc: [`'none'`],
      baseUri: [`'self'`],
      frameAncestors: [`'none'`],
    },
  },
  csrf: {
    enabled: true,
    exceptRoutes: (ctx) =>
      // Only requests no cookie can authenticate: the public endpoints (chat API, webhooks),
      // and token calls to routes that take a token instead of the session (the session
      // guard refuses them: app/services/auth/web_session_guard.ts). A header alone never
      // exempts a session route (issue 27).
      (carriesToken(ctx) && routeTakesApiToken(ctx)) || isPublicApiPath(ctx.request.url()),
    enableXsrfCookie: true,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: true, maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})

export default shieldConfig
