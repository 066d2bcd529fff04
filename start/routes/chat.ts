import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ChatController = () => import('#controllers/chat/chat_controller')

/*
| The public chat API (spec 02 section 7). No session needed: embeds and API clients on
| other sites call it (CSRF-exempt in config/shield.ts). The /typebots/ paths keep
| existing clients of the format working; /bots/ is our alias.
*/
router
  .group(() => {
    router.post('/typebots/:publicId/startChat', [ChatController, 'start'])
    router.post('/bots/:publicId/startChat', [ChatController, 'start'])
    router.post('/sessions/:sessionId/continueChat', [ChatController, 'continue'])
    router.post('/typebots/:botId/blocks/:blockId/results/:resultId/executeWebhook', [
      ChatController,
      'webhook',
    ])
  })
  .prefix('/api/v1')

router
  .post('/api/v1/typebots/:botId/preview/startChat', [ChatController, 'preview'])
  .use(middleware.apiAuth())
