import { repeat } from '#queue/queue'
import { pluginRegistry } from '#services/plugin_registry'
import type { ExecutableWorkflow } from '#shared/workflow/types'

export const SCHEDULE_JOB = 'workflow.schedule'

/** The cron of a workflow whose trigger is a schedule (its runner exports `toCron`). */
async function cronOf(executable: ExecutableWorkflow | null | undefined) {
  const root = executable?.blocks.find((block) => block.id === executable.root_block)
  if (!root) return undefined
  const toCron = await (
    await pluginRegistry()
  ).exportOf<(options: unknown) => string>(root.type, 'toCron')
  return toCron ? toCron(root.options ?? {}) : undefined
}

/** Repeats the schedule job of a workflow whose trigger is a schedule; others: nothing. */
export async function scheduleWorkflow(workflowId: string, executable: ExecutableWorkflow | null) {
  const cron = await cronOf(executable)
  if (cron) await repeat(SCHEDULE_JOB, { workflowId }, { cron, key: workflowId })
}
