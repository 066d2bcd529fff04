import db from '@adonisjs/lucid/services/db'
import WorkflowRun from '#models/workflow_run'
import type { WorkflowSettings } from '#shared/workflow/types'
import { leaseExpired } from './run_claims.js'
import { failWithoutRunning } from './run_recorder.js'
import { LEASE_OWNER, reclaimExpired, stamp } from './run_leases.js'
import { FINAL_STATUSES, loadWorkflow, RUN_TEXTS, timeoutMsOf } from './runnable_workflow.js'

/**
 * Runs left behind: a job that failed for good, a process that died holding runs, timers
 * whose in-process job went with the last process. The sweep in jobs.ts calls these.
 */

/** Marks a run that could not be executed at all (its job failed for good). */
export async function markRunFailed(runId: string, error: unknown) {
  const run = await WorkflowRun.find(runId)
  if (!run || FINAL_STATUSES.includes(run.status)) return
  // Running under another process's live lease (its job stalled here, the run goes on there).
  if (run.status === 'running' && run.claimedBy !== LEASE_OWNER && run.leaseExpiresAt) {
    if (!leaseExpired(run, new Date())) return
  }
  const workflow = await loadWorkflow(run.workflowId)
  const message = error instanceof Error ? error.message : String(error ?? RUN_TEXTS.crashed)
  await failWithoutRunning(run, workflow, message || RUN_TEXTS.crashed)
}

/**
 * Runs whose job may be gone (the in-process queue forgets jobs on restart; a crashed
 * worker leaves runs "running"). Running runs whose lease has expired (run_leases.ts) go
 * back to queued with their last checkpoint. The caller dispatches 'workflow.run' for `queued`, 'workflow.resume' for
 * `due`, and a delayed 'workflow.resume' for `upcoming` (with the timer's own job id, so a
 * live timer job is not doubled); a duplicate dispatch is harmless, the first claim wins.
 */
export async function recoverRuns(now = new Date()) {
  await reclaimExpired(now)
  // Runs claimed without a lease (by a version before leases): the run's timeout decides.
  const running = await WorkflowRun.query()
    .where('status', 'running')
    .whereNull('leaseExpiresAt')
    .where('updatedAt', '<', stamp(new Date(now.getTime() - 60_000)))
  const settingsOf = new Map<string, WorkflowSettings | null>()
  for (const run of running) {
    if (!settingsOf.has(run.workflowId)) {
      settingsOf.set(run.workflowId, (await loadWorkflow(run.workflowId))?.settings ?? null)
    }
    // Nothing runs longer than its timeout: past it (and a margin) no process holds the run.
    const staleAt = run.updatedAt.toMillis() + timeoutMsOf(settingsOf.get(run.workflowId)) + 60_000
    if (staleAt > now.getTime()) continue
    await db
      .from('workflow_runs')
      .where('id', run.id)
      .where('status', 'running')
      .update({ status: 'queued', updated_at: stamp(now) })
  }
  const queued = await db.from('workflow_runs').where('status', 'queued').select('id')
  const due = await WorkflowRun.query()
    .where('status', 'waiting')
    .whereNotNull('resumeAt')
    .where('resumeAt', '<=', stamp(now))
    .select('id', 'resumeAt')
  // Timers falling due before the next sweep: their in-process job may have died with the
  // last process, and waiting for the next sweep would make a 2 s wait last a minute.
  const upcoming = await WorkflowRun.query()
    .where('status', 'waiting')
    .where('resumeAt', '>', stamp(now))
    .where('resumeAt', '<=', stamp(new Date(now.getTime() + UPCOMING_WAITS_MS)))
    .select('id', 'resumeAt')
  return {
    queued: queued.map((row: { id: string }) => row.id),
    due: due.map((row) => row.id),
    /** The due timers with their time: the id of their timer job. */
    dueTimers: due.map((row) => ({ runId: row.id, resumeAt: row.resumeAt!.toUTC().toISO()! })),
    upcoming: upcoming.map((row) => ({
      runId: row.id,
      resumeAt: row.resumeAt!.toUTC().toISO()!,
    })),
  }
}

/** How far ahead the sweep (every 20 s) re-arms the timers of waiting runs. */
export const UPCOMING_WAITS_MS = 120_000
