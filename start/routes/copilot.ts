import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const CopilotController = () => import('#controllers/copilot/copilot_controller')
const BotTranslationsController = () => import('#controllers/bots/bot_translations_controller')

/*
| The AI copilot of the workflow and bot editors (docs/copilot.md): session + XSRF header.
*/
// Opening the conversation greets it, or notes the builder's edits, the first time: it
// writes, so it is a POST behind CSRF, never a GET (docs/security.md).
router
  .group(() => {
    router.post('/api/workflows/:workflowId/copilot', [CopilotController, 'show'])
    router.post('/api/workflows/:workflowId/copilot/messages', [CopilotController, 'send'])
    router.post('/api/bots/:botId/copilot', [CopilotController, 'show'])
    router.post('/api/bots/:botId/copilot/messages', [CopilotController, 'send'])
    // The Languages panel's drafts, through the copilot's AI credential (docs/bots.md).
    router.post('/api/bots/:botId/translations/draft', [BotTranslationsController, 'draft'])
  })
  .use(middleware.auth())
