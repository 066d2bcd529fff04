import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ResultsController = () => import('#controllers/results/results_controller')
const ApiResultsController = () => import('#controllers/results/api_results_controller')

/*
| Results of a bot. The page itself is the editor's "Results" tab (/bots/:id/results in
| app.ts); these are its JSON calls (session + XSRF header), then the REST API.
*/
router
  .group(() => {
    router.get('/table', [ResultsController, 'table'])
    router.get('/analytics', [ResultsController, 'analytics'])
    router.get('/', [ResultsController, 'index'])
    router.delete('/', [ResultsController, 'destroy'])
    router.post('/archive', [ResultsController, 'archive'])
    router.post('/export', [ResultsController, 'export'])
    router.get('/:resultId/logs', [ResultsController, 'show'])
  })
  .prefix('/api/bots/:id/results')
  .use(middleware.auth())

router
  .group(() => {
    router.get('/bots/:id/results', [ApiResultsController, 'index'])
    router.get('/bots/:id/results/:resultId/logs', [ApiResultsController, 'logs'])
  })
  .prefix('/api/v1')
  .use(middleware.apiAuth())
