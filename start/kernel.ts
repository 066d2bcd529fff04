/*
| HTTP kernel: server-wide and router-wide middleware, and the named middleware.
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'
import { middlewareChain } from '#middleware/middleware_chain'

const exceptionHandler = () => import('#exceptions/handler')
server.errorHandler(exceptionHandler)

// Each list runs as one middleware whose members are made once (app/middleware/middleware_chain.ts).
server.use([
  middlewareChain(exceptionHandler, [
    () => import('#middleware/container_bindings_middleware'),
    // Outermost: whatever answers (a page, JSON, an error page) is compressed once, whole.
    () => import('#middleware/compression_middleware'),
    // Local wrappers (app/middleware): made once, and skipped or lazy on the public endpoints.
    () => import('#middleware/static_middleware'),
    () => import('@adonisjs/cors/cors_middleware'),
    () => import('#middleware/vite_dev_middleware'),
    () => import('#middleware/inertia_middleware'),
  ]),
])

router.use([
  middlewareChain(exceptionHandler, [
    () => import('#middleware/viewer_host_middleware'),
    // Checks size and nesting of JSON bodies before parsing (docs/security.md).
    () => import('#middleware/body_parser_middleware'),
    () => import('#middleware/web_session_middleware'),
    () => import('#middleware/web_shield_middleware'),
    () => import('#middleware/initialize_auth_middleware'),
    () => import('#middleware/silent_auth_middleware'),
    () => import('#middleware/initialize_bouncer_middleware'),
    () => import('#middleware/locale_middleware'),
  ]),
])

export const middleware = router.named({
  guest: () => import('#middleware/guest_middleware'),
  auth: () => import('#middleware/auth_middleware'),
  apiAuth: () => import('#middleware/api_auth_middleware'),
  workspace: () => import('#middleware/workspace_middleware'),
  devOnly: () => import('#middleware/dev_only_middleware'),
  sameOrigin: () => import('#middleware/same_origin_middleware'),
})
