/*
| Messaging channels: the job answering the files a contact sends at once, and at boot the
| messages a stopped process left held (docs/channels.md, "Several files at once").
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { registerJobModules } from '#queue/queue'

registerJobModules([() => import('#services/channels/jobs')])

if (app.getEnvironment() === 'web') {
  app.ready(async () => {
    try {
      const { resumeHeldMessages } = await import('#services/channels/held_messages')
      await resumeHeldMessages()
    } catch (error) {
      logger.error({ err: error }, 'could not resume the held messages of channel contacts')
    }
    try {
      const { resumeReplyTimeouts } = await import('#services/channels/conversation')
      await resumeReplyTimeouts()
    } catch (error) {
      logger.error({ err: error }, 'could not resume the reply timeouts of channel contacts')
    }
  })
}
