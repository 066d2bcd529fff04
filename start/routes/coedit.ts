import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SharedDraftsController = () => import('#controllers/coedit/shared_drafts_controller')

/*
| Shared drafts of the bot and workflow editors (session + XSRF header); their messages
| travel on transmit channels authorised in start/transmit.ts.
*/
router
  .group(() => {
    router.get('/api/coedit/:kind/:id', [SharedDraftsController, 'show'])
    router.post('/api/coedit/:kind/:id/updates', [SharedDraftsController, 'update'])
    router.post('/api/coedit/:kind/:id/write', [SharedDraftsController, 'write'])
    router.post('/api/coedit/:kind/:id/presence', [SharedDraftsController, 'presence'])
  })
  .use(middleware.auth())
