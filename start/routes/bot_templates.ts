import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const BotTemplatesController = () => import('#controllers/bots/bot_templates_controller')

/*
| The dashboard's template gallery (templates in database/templates). The preview chat
| runs a template without creating a bot; "Use this template" creates one and opens it.
*/
router
  .group(() => {
    router.get('/templates', [BotTemplatesController, 'index'])
    router.post('/templates/:templateId/preview/startChat', [
      BotTemplatesController,
      'previewStart',
    ])
    router.post('/templates/:templateId/preview/sessions/:sessionId/continueChat', [
      BotTemplatesController,
      'previewContinue',
    ])
  })
  .prefix('/api/v1')
  .use(middleware.apiAuth())

router
  .post('/bots/templates/:templateId', [BotTemplatesController, 'use'])
  .use([middleware.auth(), middleware.workspace()])
