import type { WorkflowRunner } from '#sdk/runner'
import { normalizeSchedule } from './schedule.js'
import type plugin from './index.js'

export { nextTick, toCron, normalizeSchedule } from './schedule.js'

/**
 * A tick's run: the output says when it was due (the tick job's `scheduledAt`, or now when
 * the run was started another way, e.g. a test run from the editor).
 */
export const run: WorkflowRunner<typeof plugin> = ({ options, workflow }) => {
  const input = (workflow?.input ?? {}) as { scheduledAt?: string }
  const timestamp =
    typeof input.scheduledAt === 'string' && !Number.isNaN(Date.parse(input.scheduledAt))
      ? new Date(input.scheduledAt).toISOString()
      : new Date().toISOString()
  return { output: { timestamp, schedule: normalizeSchedule(options) } }
}

export { fromN8n } from './n8n.js'
