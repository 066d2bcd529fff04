/*
| Knowledge stores: the indexing job, and at boot the sources a stopped process left
| unfinished (docs/knowledge.md, "Indexing").
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { registerJobModules } from '#queue/queue'

registerJobModules([() => import('#services/knowledge/jobs')])

if (app.getEnvironment() === 'web') {
  app.ready(async () => {
    try {
      const { resumeIndexing } = await import('#services/knowledge/jobs')
      await resumeIndexing()
    } catch (error) {
      logger.error({ err: error }, 'could not resume the indexing of knowledge sources')
    }
  })
}
