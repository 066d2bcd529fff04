import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const TypebotsController = () => import('#controllers/typebot_api/typebots_controller')
const TypebotResultsController = () => import('#controllers/typebot_api/results_controller')
const TypebotWorkspacesController = () => import('#controllers/typebot_api/workspaces_controller')

/*
| Typebot's management API, as aliases of ours for scripts, n8n, Make and Zapier written
| against it (docs/migrating-from-typebot.md): its paths and JSON shapes, our API tokens
| and access rules. GET /api/v1/workspaces is shared with our API (same shape). The chat
| endpoints under /api/v1/typebots/:publicId/ are in chat.ts.
*/
router
  .group(() => {
    router.get('/typebots', [TypebotsController, 'index'])
    router.post('/typebots', [TypebotsController, 'store'])
    router.post('/typebots/import', [TypebotsController, 'import'])
    router.get('/typebots/:typebotId', [TypebotsController, 'show'])
    router.patch('/typebots/:typebotId', [TypebotsController, 'update'])
    router.delete('/typebots/:typebotId', [TypebotsController, 'destroy'])
    router.get('/typebots/:typebotId/publishedTypebot', [TypebotsController, 'published'])
    router.post('/typebots/:typebotId/publish', [TypebotsController, 'publish'])
    router.post('/typebots/:typebotId/unpublish', [TypebotsController, 'unpublish'])

    router.get('/typebots/:typebotId/results', [TypebotResultsController, 'index'])
    router.delete('/typebots/:typebotId/results', [TypebotResultsController, 'destroy'])
    router.get('/typebots/:typebotId/results/:resultId', [TypebotResultsController, 'show'])
    router.get('/typebots/:typebotId/results/:resultId/logs', [TypebotResultsController, 'logs'])
    router.get('/typebots/:typebotId/analytics/stats', [TypebotResultsController, 'stats'])

    router.post('/workspaces', [TypebotWorkspacesController, 'store'])
    router.get('/workspaces/:workspaceId', [TypebotWorkspacesController, 'show'])
    router.patch('/workspaces/:workspaceId', [TypebotWorkspacesController, 'update'])
    router.delete('/workspaces/:workspaceId', [TypebotWorkspacesController, 'destroy'])
    router.get('/workspaces/:workspaceId/members', [TypebotWorkspacesController, 'members'])

    router.get('/folders', [TypebotWorkspacesController, 'folders'])
    router.post('/folders', [TypebotWorkspacesController, 'createFolder'])
    router.get('/folders/:folderId', [TypebotWorkspacesController, 'folder'])
    router.patch('/folders/:folderId', [TypebotWorkspacesController, 'updateFolder'])
    router.delete('/folders/:folderId', [TypebotWorkspacesController, 'destroyFolder'])
  })
  .prefix('/api/v1')
  .use(middleware.apiAuth())
