/*
| Workflow runtime wiring: the queue jobs of runs, the schedules of active workflows, and
| the periodic sweep (runs a restart left without a job) and pruning of old runs.
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { registerJobModules, removeRepeat, repeat, dispatch } from '#queue/queue'
import { pluginRegistry } from '#services/plugin_registry'
import { onWorkflowActivated, onWorkflowDeactivated } from '#services/workflow_events'
import type { ExecutableWorkflow } from '#shared/workflow/types'

registerJobModules([() => import('#services/workflows/jobs')])

const SCHEDULE_JOB = 'workflow.schedule'

/** The cron of a workflow whose trigger is a schedule (its runner exports `toCron`). */
async function cronOf(executable: ExecutableWorkflow | null | undefined) {
  const root = executable?.blocks.find((block) => block.id === executable.root_block)
  if (!root) return undefined
  const toCron = await (
    await pluginRegistry()
  ).exportOf<(options: unknown) => string>(root.type, 'toCron')
  return toCron ? toCron(root.options ?? {}) : undefined
}

export async function scheduleWorkflow(workflowId: string, executable: ExecutableWorkflow | null) {
  const cron = await cronOf(executable)
  if (cron) await repeat(SCHEDULE_JOB, { workflowId }, { cron, key: workflowId })
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
      const { default: Workflow } = await import('#models/workflow')
      // In-process schedules live in memory: set them again for every active workflow.
      const active = await Workflow.query().where('is_active', true).where('status', 'PUBLISHED')
      for (const workflow of active)
        await scheduleWorkflow(workflow.id, workflow.executableWorkflow)
      await repeat('workflow.sweep', {}, { everyMs: 60_000, key: 'sweep' })
      await repeat('workflow.prune', {}, { cron: '17 3 * * *', key: 'prune' })
      await dispatch('workflow.sweep', {})
    } catch (error) {
      logger.error({ err: error }, 'could not start the workflow runtime')
    }
  })
}
