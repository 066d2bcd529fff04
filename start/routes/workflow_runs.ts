import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const RunsController = () => import('#controllers/workflows/runs_controller')
const EventTriggersController = () => import('#controllers/workflows/event_triggers_controller')
const PluginSessionsController = () => import('#controllers/plugins/plugin_sessions_controller')

// Runs of a workflow: API tokens or the session (the editor's Run button).
router
  .group(() => {
    router.post('/workflows/:id/run', [RunsController, 'start'])
    router.post('/workflows/:id/test-run', [RunsController, 'test'])
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
    // Event triggers: the trigger plugin checks the call (signature, secret token).
    router.post('/workflows/:id/events/:nodeId', [EventTriggersController, 'receive'])
    // Services calling a plugin's session back (a voice call's turns): the plugin checks them.
    router.post('/plugins/:pluginId/sessions/:sessionId/:callback', [
      PluginSessionsController,
      'receive',
    ])
  })
  .prefix('/api/v1')
