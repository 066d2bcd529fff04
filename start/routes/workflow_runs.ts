import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const RunsController = () => import('#controllers/workflows/runs_controller')

// Runs of a workflow: API tokens or the session (the editor's Run button).
router
  .group(() => {
    router.post('/workflows/:id/run', [RunsController, 'start'])
    router.get('/workflows/:id/runs', [RunsController, 'index'])
    router.get('/runs/:runId', [RunsController, 'show'])
  })
  .prefix('/api/v1')
  .use(middleware.apiAuth())

// Public: webhook triggers and wait nodes waiting for a call (no session, no CSRF).
router
  .group(() => {
    router.route('/workflows/:id/webhook', ['GET', 'POST'], [RunsController, 'webhook'])
    router.post('/workflows/:id/webhook/runs/:runId', [RunsController, 'resume'])
  })
  .prefix('/api/v1')
