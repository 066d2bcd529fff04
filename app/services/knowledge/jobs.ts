import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { defineJob, dispatch } from '#queue/queue'
import { indexSource, markSourceFailed } from './indexing.js'

/**
 * The queue job that indexes a knowledge source (docs/knowledge.md, "Indexing"), on the
 * in-process driver or BullMQ like workflow runs (docs/queue.md). One job per source
 * revision: a re-index bumps the revision, so its job is a new one and the old one stops.
 */
export const indexSourceJob = defineJob<{ sourceId: string; revision: number }>({
  name: 'knowledge.index',
  // Extraction and chunking take CPU in the process: a few at a time.
  concurrency: 2,
  handler: async ({ sourceId, revision }, { signal }) => {
    const outcome = await indexSource(sourceId, revision, signal)
    if (outcome.status === 'FAILED') {
      logger.info({ sourceId, reason: outcome.error }, 'knowledge source failed')
    }
  },
  onFailed: ({ sourceId, revision }, error) => markSourceFailed(sourceId, revision, error),
})

export function dispatchIndexing(sourceId: string, revision: number) {
  return dispatch(
    indexSourceJob,
    { sourceId, revision },
    { jobId: `knowledge:${sourceId}:${revision}` }
  )
}

/**
 * At boot: sources a stopped process left PENDING or PROCESSING get their job again (a
 * no-op on BullMQ while the job still exists; in-process jobs died with the process).
 */
export async function resumeIndexing() {
  const rows = await db
    .from('knowledge_sources')
    .whereIn('status', ['PENDING', 'PROCESSING'])
    .select('id', 'revision')
  for (const row of rows) await dispatchIndexing(row.id, Number(row.revision))
}
