import db from '@adonisjs/lucid/services/db'
import { jobExists, queueAvailable } from '#queue/queue'
import { RUN_JOB_NAME } from './runnable_workflow.js'
import { runJobId } from './jobs.js'
import { stamp } from './run_leases.js'

/**
 * How long a run may wait before /health counts it: the sweep (every 20 s) and the lease
 * check (every 5 s) give every run its job back well within it.
 */
export const STRANDED_AFTER_MS = 30_000
/** Queued runs looked up in the queue per health call, oldest first: enough to tell. */
const LOOKED_UP = 100

export interface StrandedRuns {
  /** Queued for longer than STRANDED_AFTER_MS, and their job is not in the queue. */
  queuedWithoutJob: number
  /** Running under a lease that expired longer than STRANDED_AFTER_MS ago: no process took them back. */
  leaseExpired: number
  /** False when the queue could not be asked (Redis away): queuedWithoutJob is then unknown. */
  queueChecked: boolean
}

/** Runs the database holds as waiting for the queue while nothing in the queue will run them. */
export async function strandedRuns(now = new Date()): Promise<StrandedRuns> {
  const before = stamp(new Date(now.getTime() - STRANDED_AFTER_MS))
  const leaseRow = await db
    .from('workflow_runs')
    .where('status', 'running')
    .whereNotNull('lease_expires_at')
    .where('lease_expires_at', '<', before)
    .count('* as total')
    .first()
  const leaseExpired = Number(leaseRow?.total ?? 0)
  if (!queueAvailable()) return { queuedWithoutJob: 0, leaseExpired, queueChecked: false }
  const queued: { id: string }[] = await db
    .from('workflow_runs')
    .where('status', 'queued')
    .where('updated_at', '<', before)
    .orderBy('updated_at', 'asc')
    .limit(LOOKED_UP)
    .select('id')
  let queuedWithoutJob = 0
  const lookUps = (async () => {
    for (const { id } of queued) {
      if (!(await jobExists(RUN_JOB_NAME, runJobId(id)))) queuedWithoutJob++
    }
    return true
  })()
  // Redis that stopped answering unnoticed would hold /health: it answers without the count.
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 2000)))
  const checked = await Promise.race([lookUps, late]).finally(() => clearTimeout(timer))
  if (!checked) lookUps.catch(() => {})
  return { queuedWithoutJob: checked ? queuedWithoutJob : 0, leaseExpired, queueChecked: checked }
}
