import { dispatch, repeat } from '#queue/queue'
import { sweepJob, pruneJob } from './jobs.js'
import { scheduleWorkflow } from './schedules.js'
import { pruneDeliveriesJob } from './event_trigger_jobs.js'

/** How often the sweep looks for runs the database holds without a job (docs/queue.md). */
export const SWEEP_EVERY_MS = 20_000

/**
 * What the queue must hold whenever it is reachable (start/workflows.ts, through
 * whenQueueConnected): run when a web process starts, and with BullMQ whenever a web process
 * or a worker (re)connects to Redis or finds it emptied. Schedules of active workflows set
 * again (in-process repeats live in memory, Redis may have lost its own), the periodic sweep
 * and prune, and one sweep now, which re-dispatches what was left without a job: queued
 * runs, runs a crash left running, and waits that fell due meanwhile. Every step is
 * idempotent, so several processes doing it at once do it once.
 */
export async function startWorkflowRuntime() {
  const { default: Workflow } = await import('#models/workflow')
  const active = await Workflow.query().where('is_active', true).whereNotNull('executable_workflow')
  for (const workflow of active) await scheduleWorkflow(workflow.id, workflow.executableWorkflow)
  await repeat(sweepJob, {}, { everyMs: SWEEP_EVERY_MS, key: 'sweep' })
  await repeat(pruneJob, {}, { cron: '17 3 * * *', key: 'prune' })
  await repeat(pruneDeliveriesJob, {}, { cron: '23 3 * * *', key: 'prune-deliveries' })
  // One id: the processes that reconnect together queue one sweep.
  await dispatch(sweepJob, {}, { jobId: 'sweep-now' })
}
