import db from '@adonisjs/lucid/services/db'
import type { WorkflowSettings } from '#shared/workflow/types'
import { affected } from './run_claims.js'
import { stamp } from './run_leases.js'
import { FINAL_STATUSES, parseJson, retentionDaysOf } from './runnable_workflow.js'

/**
 * Deletes finished runs (and their node records) older than their workflow's retentionDays
 * (default 30), and runs whose workflow is gone. Returns how many runs were deleted.
 */
export async function pruneRuns(now = new Date()): Promise<number> {
  const workflows = await db.from('workflows').select('id', 'settings')
  const byDays = new Map<number, string[]>()
  for (const row of workflows) {
    const days = retentionDaysOf(parseJson<WorkflowSettings | null>(row.settings, null))
    byDays.set(days, [...(byDays.get(days) ?? []), row.id])
  }
  let deleted = 0
  for (const [days, ids] of byDays) {
    const cutoff = stamp(new Date(now.getTime() - days * 86_400_000))
    // Chunks keep the statement under SQLite's bound-parameter limit.
    for (let index = 0; index < ids.length; index += 500) {
      const chunk = ids.slice(index, index + 500)
      deleted += affected(
        await db
          .from('workflow_runs')
          .whereIn('workflow_id', chunk)
          .whereIn('status', FINAL_STATUSES)
          .where('created_at', '<', cutoff)
          .delete()
      )
    }
  }
  deleted += affected(
    await db
      .from('workflow_runs')
      .whereNotIn('workflow_id', db.from('workflows').select('id'))
      .delete()
  )
  return deleted
}
