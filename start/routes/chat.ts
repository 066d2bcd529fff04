import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ChatController = () => import('#controllers/chat/chat_controller')

/*
| The public chat API. No session needed: embeds and API clients on
| other sites call it (CSRF-exempt in config/shield.ts). The /typebots/ paths keep
| existing clients of the format working; /bots/ is our alias.
*/
router
  .group(() => {
    router.post('/typebots/:publicId/startChat', [ChatController, 'start'])
    router.post('/bots/:publicId/startChat', [ChatController, 'start'])
    router.post('/sessions/:sessionId/continueChat', [ChatController, 'continue'])
    router.post('/sessions/:sessionId/timeout', [ChatController, 'timeout'])
    router.post('/typebots/:botId/blocks/:blockId/results/:resultId/executeWebhook', [
      ChatController,
      'webhook',
    ])
  })
  .prefix('/api/v1')

// Streamed answers of a paused AI block (the client then continues with the full text).
router.post('/api/v2/sessions/:sessionId/streamMessage', [ChatController, 'stream'])

router
  .post('/api/v1/typebots/:botId/preview/startChat', [ChatController, 'preview'])
  .use(middleware.apiAuth())

// Messaging channels: Telegram and Meta call these (docs/channels.md); each call is checked
// with the channel's secret token or signature.
const ChannelWebhooksController = () => import('#controllers/chat/channel_webhooks_controller')
router.post('/api/v1/channels/telegram/:id', [ChannelWebhooksController, 'telegram'])
router.get('/api/v1/channels/whatsapp/:id', [ChannelWebhooksController, 'whatsappVerify'])
router.post('/api/v1/channels/whatsapp/:id', [ChannelWebhooksController, 'whatsapp'])

const ChatFilesController = () => import('#controllers/chat/files_controller')
const ViewerController = () => import('#controllers/chat/viewer_controller')

router.post('/api/v1/sessions/:sessionId/files', [ChatFilesController, 'store'])

router
  .get('/embed.js', async ({ response }) => {
    const { embedScript } = await import('#services/chat/embed_script')
    response.header('Content-Type', 'application/javascript; charset=utf-8')
    response.header('Cache-Control', 'public, max-age=300')
    response.header('Access-Control-Allow-Origin', '*')
    return embedScript()
  })
  .as('embed.script')

// Typebot's web library API (resources/embed/typebot.ts): existing embeds switch by URL.
router
  .get('/typebot/web.js', async ({ response }) => {
    const { embedScript } = await import('#services/chat/embed_script')
    response.header('Content-Type', 'text/javascript; charset=utf-8')
    response.header('Cache-Control', 'public, max-age=300')
    response.header('Access-Control-Allow-Origin', '*')
    return embedScript('typebot')
  })
  .as('embed.typebot')

// The editor preview runs the bot's client-side scripts here, in an opaque origin.
router
  .get('/preview/script-runner', async ({ response }) => {
    const { scriptRunnerPage } = await import('#services/chat/script_runner_page')
    const { SCRIPT_RUNNER_CSP } = await import('#services/public_surface')
    response.header('Content-Type', 'text/html; charset=utf-8')
    response.header('Content-Security-Policy', SCRIPT_RUNNER_CSP)
    response.header('X-Content-Type-Options', 'nosniff')
    response.header('Cache-Control', 'no-store')
    return scriptRunnerPage
  })
  .as('preview.scriptRunner')

/*
| The public bot page. Registered last: static paths of the app win over this pattern.
| A public id holds letters, digits, hyphens and dots.
*/
router
  .get('/:publicId', [ViewerController, 'show'])
  .where('publicId', /^[A-Za-z0-9][A-Za-z0-9.-]*$/)
  .as('viewer.show')
