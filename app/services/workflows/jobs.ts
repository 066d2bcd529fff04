import logger from '@adonisjs/core/services/logger'
import { defineJob, dispatch, whileWorking } from '#queue/queue'
import { RetryLater } from '#queue/types'
import { createRun, executeRun, resumeRun } from './run_workflow.js'
import { loadWorkflow, RUN_JOB_NAME } from './runnable_workflow.js'
import { markRunFailed, recoverRuns } from './run_recovery.js'
import { pruneRuns } from './run_pruning.js'
import { type RunOutcome } from './run_recorder.js'
import { leaseState, RECLAIM_EVERY_MS, reclaimExpired } from './run_leases.js'
import { isTransientDatabaseError } from './transient_errors.js'
import { prunePluginSessions } from '#services/plugin_session_retention'
import { awakeTimer } from '#services/awake_timer'

/**
 * The queue jobs of workflow runs. Register this module with registerJobModules (a
 * preload) so every process knows them; dispatch 'workflow.run' after createRun.
 */

/** How long a run at its workflow's concurrency cap waits before trying again. */
export const CONCURRENCY_RETRY_MS = 2000

/** The one job of a run: its id is the run's, so however often it is dispatched, it is one. */
export function runJobId(runId: string) {
  return `run:${runId}`
}

export { isTransientDatabaseError }

/** How long a run job waits after a transient database error (deadlock, busy, pool). */
export const TRANSIENT_RETRY_MS = 1000

/** BullMQ's failure of a job whose worker lost it more often than maxStalledCount allows. */
function isStallFailure(error: unknown) {
  return error instanceof Error && /stalled more than allowable limit/i.test(error.message)
}

/**
 * Runs the executor; a transient database error sends the job back to the delayed set
 * rather than failing the run. A run it cut off mid-way holds no lease renewal any more, so
 * the next try waits for the lease to run out and goes on from the last checkpoint.
 */
async function withTransientRetry(work: () => Promise<void>) {
  try {
    await work()
  } catch (error) {
    if (isTransientDatabaseError(error)) {
      logger.warn({ err: error }, 'workflow run job hit a transient database error; retrying')
      throw new RetryLater(TRANSIENT_RETRY_MS)
    }
    throw error
  }
}

/**
 * A run job failed for good. A job that stalled too often (its worker's event loop or Redis
 * was too slow to renew the lock, under load) has not failed its run: the run's own lease
 * says whether it is still going on somewhere (it is then left alone) or must go on
 * elsewhere (it is queued again). Any other failure ends the run as failed.
 */
async function runJobFailed(runId: string, error: unknown) {
  if (isStallFailure(error)) {
    const state = await leaseState(runId)
    if (state === 'held') return
    if (state === 'requeued') {
      await dispatchRun(runId)
      return
    }
  }
  await markRunFailed(runId, error)
}

/** Queues the run's job (a no-op while the run already has one waiting, delayed or running). */
export function dispatchRun(runId: string) {
  return dispatch(runJob, { runId }, { jobId: runJobId(runId) })
}

/**
 * Queues the run's job, waiting at most `ms` for the queue to take it: true when it did,
 * false when it is still on its way (Redis away or too slow; the dispatch goes on and
 * lands when Redis answers again, else the sweep queues the run once it does).
 * A dispatch that fails outright rejects.
 */
export async function dispatchRunWithin(runId: string, ms: number): Promise<boolean> {
  const queued = dispatchRun(runId)
  // Counted in the process's running time: a starved machine is not an unanswering Redis.
  const budget = awakeTimer(ms)
  try {
    const done = await Promise.race([
      queued.then(() => true as const),
      budget.done.then(() => false as const),
    ])
    if (!done) queued.catch(() => {})
    return done
  } finally {
    budget.cancel()
  }
}

/** What follows an executor call: try again later, or wake the run when its timer is due. */
async function followUp(outcome: RunOutcome | null) {
  if (!outcome) return
  if (outcome.deferred) {
    // The same job waits in the queue's delayed set (no copy): until a slot may be free, or
    // until the lease of the process holding the run would run out.
    const until = outcome.busyUntil ? Date.parse(outcome.busyUntil) - Date.now() + 500 : 0
    throw new RetryLater(Math.max(CONCURRENCY_RETRY_MS, until))
  }
  if (outcome.status === 'waiting' && outcome.resumeAt) {
    const delayMs = Math.max(0, Date.parse(outcome.resumeAt) - Date.now())
    // One job per timer; a job that woke too early is still running, so its retry needs
    // another id.
    const jobId = outcome.notResumed ? undefined : `${outcome.runId}:${outcome.resumeAt}`
    await dispatch(resumeJob, { runId: outcome.runId }, { delayMs, jobId })
  }
}

export const runJob = defineJob<{ runId: string }>({
  name: RUN_JOB_NAME,
  // Runs mostly wait on the database and on the calls of their nodes: with 10 at a time a
  // process sat idle under load (bench/workflows.bench.ts). Each workflow's own cap
  // (settings.concurrency) still applies, and the database pool bounds the queries.
  concurrency: 32,
  handler: async ({ runId }, { signal }) =>
    withTransientRetry(async () => followUp(await executeRun(runId, signal))),
  onFailed: ({ runId }, error) => runJobFailed(runId, error),
})

/** Wakes a run parked on a timer (the webhook route calls resumeRun itself). */
export const resumeJob = defineJob<{ runId: string; nodeId?: string; payload?: unknown }>({
  name: 'workflow.resume',
  concurrency: 10,
  handler: async ({ runId, nodeId, payload }, { signal }) =>
    withTransientRetry(async () => followUp(await resumeRun(runId, payload, { nodeId, signal }))),
  onFailed: ({ runId }, error) => markRunFailed(runId, error),
})

/**
 * Dispatches again what a restart or a crash left without a job: queued runs, stale running
 * runs, waits that are due. Run at boot, every 20 s, and whenever Redis may have lost jobs (runtime.ts).
 */
export const sweepJob = defineJob<Record<string, never>>({
  name: 'workflow.sweep',
  concurrency: 1,
  handler: async () => {
    const { queued, due, dueTimers, upcoming } = await recoverRuns()
    for (const runId of queued) await dispatchRun(runId)
    // The timer job's own id: one waiting for a concurrency slot is not doubled.
    for (const { runId, resumeAt } of dueTimers) {
      await dispatch(resumeJob, { runId }, { jobId: `${runId}:${resumeAt}` })
    }
    for (const { runId, resumeAt } of upcoming) {
      // The id followUp gives the timer job: no second job while the first one lives.
      await dispatch(
        resumeJob,
        { runId },
        { delayMs: Math.max(0, Date.parse(resumeAt) - Date.now()), jobId: `${runId}:${resumeAt}` }
      )
    }
    return { queued: queued.length, due: due.length, upcoming: upcoming.length }
  },
})

/** Deletes runs past their workflow's retentionDays; daily is enough. */
export const pruneJob = defineJob<Record<string, never>>({
  name: 'workflow.prune',
  concurrency: 1,
  handler: async () => ({ deleted: await pruneRuns(), sessions: await prunePluginSessions() }),
})

/**
 * A schedule trigger's tick (repeat it per active workflow with toCron of its trigger's
 * options, keyed by the workflow id). Inactive or unpublished workflows are skipped.
 */
export const scheduleJob = defineJob<{ workflowId: string }>({
  name: 'workflow.schedule',
  concurrency: 5,
  handler: async ({ workflowId }) => {
    const workflow = await loadWorkflow(workflowId)
    if (!workflow?.executableWorkflow || !workflow.isActive) return null
    const runId = await createRun(workflow, 'schedule', { scheduledAt: new Date().toISOString() })
    await dispatchRun(runId)
    return runId
  },
})

/**
 * Every process that works the queue takes back, every few seconds, the runs of processes
 * that died (their lease expired) and queues them again: a crashed worker's runs go on
 * elsewhere within seconds, and their concurrency slots are free at once (docs/queue.md).
 */
whileWorking(() => {
  let checking: Promise<void> | null = null
  const check = async () => {
    for (const runId of await reclaimExpired()) await dispatchRun(runId)
  }
  const timer = setInterval(() => {
    checking ??= check()
      .catch((error) => logger.warn({ err: error }, 'expired workflow run leases not checked'))
      .finally(() => (checking = null))
  }, RECLAIM_EVERY_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await checking
  }
})
