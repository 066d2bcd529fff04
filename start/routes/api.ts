import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const V1Controller = () => import('#controllers/api/v1_controller')
const ApiCredentialsController = () => import('#controllers/api/credentials_controller')
const PluginsController = () => import('#controllers/api/plugins_controller')
const ApiBotsController = () => import('#controllers/api/bots_controller')
const DocsController = () => import('#controllers/api/docs_controller')
const ChannelsController = () => import('#controllers/bots/channels_controller')

router.get('/api/docs', [DocsController, 'html'])
router.get('/api/docs/openapi.json', [DocsController, 'json'])

/*
| The public REST API. API tokens (Authorization: Bearer) or the browser session.
*/
router
  .group(() => {
    router.get('/me', [V1Controller, 'me'])
    router.get('/workspaces', [V1Controller, 'workspaces'])
    router.post('/bots', [ApiBotsController, 'store'])
    router.get('/workspaces/:id/bots', [ApiBotsController, 'index'])
    router.get('/bots/:id', [ApiBotsController, 'show'])
    router.get('/bots/:id/published', [ApiBotsController, 'published'])
    router.patch('/bots/:id', [ApiBotsController, 'update'])
    router.delete('/bots/:id', [ApiBotsController, 'destroy'])
    router.post('/bots/:id/publish', [ApiBotsController, 'publish'])
    router.post('/bots/:id/unpublish', [ApiBotsController, 'unpublish'])
    router.post('/bots/:id/restore-published', [ApiBotsController, 'restorePublished'])
    router.get('/bots/:id/custom-domain', [ApiBotsController, 'customDomain'])
    router.post('/bots/:id/custom-domain/verify', [ApiBotsController, 'verifyCustomDomain'])
    router.get('/bots/:id/channels', [ChannelsController, 'index'])
    router.put('/bots/:id/channels/:channel', [ChannelsController, 'update'])
    router.delete('/bots/:id/channels/:channel', [ChannelsController, 'destroy'])
    router.get('/bots/:id/versions', [ApiBotsController, 'versions'])
    router.post('/bots/:id/versions', [ApiBotsController, 'saveVersion'])
    router.post('/bots/:id/versions/:versionId/restore', [ApiBotsController, 'restoreVersion'])
    router.get('/plugins', [PluginsController, 'index'])
    router.post('/plugins/validate', [PluginsController, 'validate'])
    router.post('/credentials', [ApiCredentialsController, 'store'])
    router.get('/workspaces/:id/credentials', [ApiCredentialsController, 'index'])
    router.delete('/credentials/:id', [ApiCredentialsController, 'destroy'])
  })
  .prefix('/api/v1')
  .use(middleware.apiAuth())
