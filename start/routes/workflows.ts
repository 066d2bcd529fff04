import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const WorkflowsController = () => import('#controllers/workflows/workflows_controller')
const WorkflowEditorController = () => import('#controllers/workflows/editor_controller')
const WorkflowRunsPageController = () => import('#controllers/workflows/runs_page_controller')
const ApiWorkflowsController = () => import('#controllers/workflows/api_workflows_controller')
const N8nImportController = () => import('#controllers/workflows/n8n_import_controller')

/*
| Workflows: the list page and its actions, the editor page, then the REST API.
| Runs and webhooks have their own routes.
*/
router
  .group(() => {
    router.get('/workflows', [WorkflowsController, 'index'])
    router.post('/workflows', [WorkflowsController, 'create'])
    // Before /workflows/:id, which would take "create" for an id. A GET changes nothing
    // (docs/security.md): creating is the list's button, a POST behind CSRF.
    router.get('/workflows/create', ({ response }) => response.redirect('/workflows'))
    router.post('/workflows/import', [WorkflowsController, 'import'])
    router.get('/workflows/:id', [WorkflowEditorController, 'show'])
    router.get('/workflows/:id/export', [WorkflowsController, 'export'])
    router.get('/workflows/:id/runs', [WorkflowRunsPageController, 'show'])
    router.post('/workflows/:id/duplicate', [WorkflowsController, 'duplicate'])
    router.post('/workflows/:id/archive', [WorkflowsController, 'archive'])
    router.delete('/workflows/:id', [WorkflowsController, 'destroy'])
  })
  .use([middleware.auth(), middleware.workspace()])

router
  .group(() => {
    router.post('/workflows', [ApiWorkflowsController, 'store'])
    router.post('/workflows/import-n8n', [N8nImportController, 'store'])
    router.get('/workspaces/:id/workflows', [ApiWorkflowsController, 'index'])
    router.get('/workflows/:id', [ApiWorkflowsController, 'show'])
    router.patch('/workflows/:id', [ApiWorkflowsController, 'update'])
    router.delete('/workflows/:id', [ApiWorkflowsController, 'destroy'])
    router.post('/workflows/:id/publish', [ApiWorkflowsController, 'publish'])
    router.post('/workflows/:id/activate', [ApiWorkflowsController, 'activate'])
    router.post('/workflows/:id/deactivate', [ApiWorkflowsController, 'deactivate'])
    router.post('/workflows/:id/duplicate', [ApiWorkflowsController, 'duplicate'])
    router.get('/workflows/:id/versions', [ApiWorkflowsController, 'versions'])
    router.post('/workflows/:id/versions', [ApiWorkflowsController, 'saveVersion'])
    router.post('/workflows/:id/versions/:versionId/restore', [
      ApiWorkflowsController,
      'restoreVersion',
    ])
  })
  .prefix('/api/v1')
  .use(middleware.apiAuth())
