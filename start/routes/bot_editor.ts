import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ThemeTemplatesController = () => import('#controllers/bots/theme_templates_controller')
const BotInvitationsController = () => import('#controllers/bots/bot_invitations_controller')

/*
| JSON calls of the bot editor's Theme tab and Share popover (session + XSRF header).
*/
router
  .group(() => {
    router.get('/api/workspaces/:workspaceId/theme-templates', [ThemeTemplatesController, 'index'])
    router.post('/api/workspaces/:workspaceId/theme-templates', [ThemeTemplatesController, 'store'])
    router.patch('/api/theme-templates/:id', [ThemeTemplatesController, 'update'])
    router.delete('/api/theme-templates/:id', [ThemeTemplatesController, 'destroy'])

    router.get('/api/bots/:botId/invitations', [BotInvitationsController, 'index'])
    router.post('/api/bots/:botId/invitations', [BotInvitationsController, 'store'])
    router.patch('/api/bots/:botId/invitations/:id', [BotInvitationsController, 'update'])
    router.delete('/api/bots/:botId/invitations/:id', [BotInvitationsController, 'destroy'])
  })
  .use(middleware.auth())
