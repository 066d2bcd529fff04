import { defineJob } from '#queue/queue'
import { POLL_JOB, pollEventTrigger, pruneEventDeliveries } from './event_triggers.js'
import { pruneChannelDeliveries } from '#services/channels/conversation'

/**
 * A polling trigger's tick (event_triggers.ts repeats it per active workflow, keyed by the
 * workflow id, every pollEveryMs of its trigger). Its own module: the run jobs stay in jobs.ts.
 */
export const pollJob = defineJob<{ workflowId: string }>({
  name: POLL_JOB,
  concurrency: 5,
  handler: async ({ workflowId }) => pollEventTrigger(workflowId),
})

/**
 * Forgets delivery ids of event triggers, and of bots' messaging channels
 * (docs/channels.md), once services have long stopped retrying: one daily job for both.
 */
export const pruneDeliveriesJob = defineJob<Record<string, never>>({
  name: 'workflow.prune-deliveries',
  concurrency: 1,
  handler: async () => ({
    deleted: await pruneEventDeliveries(),
    channelDeliveries: await pruneChannelDeliveries(),
  }),
})
