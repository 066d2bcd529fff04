import { defineJob, dispatch } from '#queue/queue'
import {
  createRun,
  executeRun,
  loadWorkflow,
  markRunFailed,
  pruneRuns,
  recoverRuns,
  resumeRun,
  RUN_JOB_NAME,
  type RunOutcome,
} from './run_workflow.js'

/**
 * The queue jobs of workflow runs. Register this module with registerJobModules (a
 * preload) so every process knows them; dispatch 'workflow.run' after createRun.
 */

/** How long a run at its workflow's concurrency cap waits before trying again. */
export const CONCURRENCY_RETRY_MS = 2000

/** What follows an executor call: try again later, or wake the run when its timer is due. */
async function followUp(outcome: RunOutcome | null) {
  if (!outcome) return
  if (outcome.deferred) {
    // No jobId: this job still exists while it runs, and a same-id dispatch would be dropped.
    await dispatch(runJob, { runId: outcome.runId }, { delayMs: CONCURRENCY_RETRY_MS })
    return
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
  handler: async ({ runId }, { signal }) => followUp(await executeRun(runId, signal)),
  onFailed: ({ runId }, error) => markRunFailed(runId, error),
})

/** Wakes a run parked on a timer (the webhook route calls resumeRun itself). */
export const resumeJob = defineJob<{ runId: string; nodeId?: string; payload?: unknown }>({
  name: 'workflow.resume',
  concurrency: 10,
  handler: async ({ runId, nodeId, payload }, { signal }) =>
    followUp(await resumeRun(runId, payload, { nodeId, signal })),
  onFailed: ({ runId }, error) => markRunFailed(runId, error),
})

/**
 * Dispatches again what a restart or a crash left without a job: queued runs, stale running
 * runs, waits that are due. Run it at boot and every minute or so.
 */
export const sweepJob = defineJob<Record<string, never>>({
  name: 'workflow.sweep',
  concurrency: 1,
  handler: async () => {
    const { queued, due, upcoming } = await recoverRuns()
    for (const runId of queued) await dispatch(runJob, { runId })
    for (const runId of due) await dispatch(resumeJob, { runId })
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
  handler: async () => ({ deleted: await pruneRuns() }),
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
    await dispatch(runJob, { runId })
    return runId
  },
})
