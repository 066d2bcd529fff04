import type { ApplicationService } from '@adonisjs/core/types'

/**
 * With the in-process driver the web server is the worker: it starts working every job once
 * the app is ready. With BullMQ the web process only dispatches: workers run in `node ace
 * queue:work` (a console process that starts them itself), so jobs never take CPU from web
 * requests. Other ace commands and tests start nothing: tests call startWorkers()/closeQueue().
 */
export default class QueueProvider {
  constructor(protected app: ApplicationService) {}

  boot() {
    // A terminating hook rather than shutdown(): hooks run before the providers shut down, so
    // in-flight jobs still have their database connections while they finish.
    this.app.terminating(async () => {
      const { closeQueue } = await import('#queue/queue')
      await closeQueue()
      // Database plugins' pools (docs/security.md, "Database blocks"): after the jobs ended.
      const { closeDataConnections } = await import('#sdk/data')
      await closeDataConnections()
    })
  }

  async ready() {
    if (this.app.getEnvironment() !== 'web') return
    // Imported here so that commands and tests do not load the queue until they use it.
    const { default: env } = await import('#start/env')
    if (env.get('QUEUE_DRIVER') !== 'in-process') return
    const { startWorkers, jobDefinitions } = await import('#queue/queue')
    await startWorkers()
    const logger = await this.app.container.make('logger')
    logger.info(`In-process queue working ${jobDefinitions().length} job types`)
  }
}
