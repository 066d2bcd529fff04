/*
| Workflow runtime wiring: the queue jobs of runs, the schedules of active workflows, and
| the periodic sweep (runs a restart left without a job) and pruning of old runs.
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { registerJobModules, removeRepeat, whenQueueConnected } from '#queue/queue'
import { SCHEDULE_JOB, scheduleWorkflow } from '#services/workflows/schedules'
import { onWorkflowActivated, onWorkflowDeactivated } from '#services/workflow_events'

registerJobModules([
  () => import('#services/workflows/jobs'),
  () => import('#services/workflows/event_trigger_jobs'),
])

/*
| What the queue must hold whenever it is reachable (periodic jobs, schedules, event trigger
| polls, a sweep now), put back by web processes and workers on every connection to Redis
| (keepQueueRegistrations: the web process below, `node ace queue:work`).
*/
whenQueueConnected(async () => {
  const { startWorkflowRuntime } = await import('#services/workflows/runtime')
  await startWorkflowRuntime()
  const { resumeEventTriggerPolls } = await import('#services/workflows/event_triggers')
  await resumeEventTriggerPolls()
})

/*
| Scaled mode: runs execute in workers, so their events (node statuses for the browser's
| stream, the answer a webhook call waits for) cross to the web processes through Redis.
*/
const redisUrl = env.get('REDIS_URL')
if (env.get('QUEUE_DRIVER') === 'bullmq' && redisUrl) {
  const { startRunEventRelay } = await import('#services/workflows/run_event_relay')
  const relay = await startRunEventRelay({
    url: redisUrl,
    prefix: env.get('QUEUE_PREFIX'),
    listen: ['web', 'test'].includes(app.getEnvironment()),
    onError: (error) => logger.warn({ err: error }, 'run event relay: Redis error'),
  })
  app.terminating(() => relay.close())
}

/*
| Event triggers start in the activation itself (a refusal must reach the user); they stop
| here, after any deactivation (switch, edit, archive, delete).
*/
if (['web', 'test'].includes(app.getEnvironment())) {
  onWorkflowDeactivated(async (event) => {
    const { deactivateEventTrigger } = await import('#services/workflows/event_triggers')
    await deactivateEventTrigger(event.workflowId)
  })
}

/** Schedules follow activation, in the processes that serve people (not in ace commands). */
if (app.getEnvironment() === 'web') {
  onWorkflowActivated(async (event) => {
    await scheduleWorkflow(event.workflowId, event.executableWorkflow).catch((error) =>
      logger.error({ err: error, workflowId: event.workflowId }, 'could not schedule the workflow')
    )
  })
  onWorkflowDeactivated(async (event) => {
    await removeRepeat(SCHEDULE_JOB, event.workflowId).catch(() => {})
  })

  app.ready(async () => {
    try {
      const { keepQueueRegistrations } = await import('#queue/queue')
      await keepQueueRegistrations()
    } catch (error) {
      logger.error({ err: error }, 'could not start the workflow runtime')
    }
  })
}
