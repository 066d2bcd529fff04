import { dispatch, repeat } from '#queue/queue'
import { sweepJob, pruneJob } from './jobs.js'
import { scheduleWorkflow } from './schedules.js'
import { pruneDeliveriesJob } from './event_trigger_jobs.js'

/**
 * What a process that serves people does when it starts (start/workflows.ts, at app ready):
 * schedules of active workflows set again (in-process repeats live in memory), the periodic
 * sweep and prune, and one sweep now, which re-dispatches what the last process left
 * without a job: queued runs, runs a crash left running, and waits that fell due while the
 * server was down (their in-process timer jobs died with it).
 */
export async function startWorkflowRuntime() {
  const { default: Workflow } = await import('#models/workflow')
  const active = await Workflow.query().where('is_active', true).whereNotNull('executable_workflow')
  for (const workflow of active) await scheduleWorkflow(workflow.id, workflow.executableWorkflow)
  await repeat(sweepJob, {}, { everyMs: 60_000, key: 'sweep' })
  await repeat(pruneJob, {}, { cron: '17 3 * * *', key: 'prune' })
  await repeat(pruneDeliveriesJob, {}, { cron: '23 3 * * *', key: 'prune-deliveries' })
  await dispatch(sweepJob, {})
}
