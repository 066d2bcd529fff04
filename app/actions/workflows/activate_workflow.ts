import type Workflow from '#models/workflow'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { withinPlanLimit } from '#services/plan_limits'
import { emitWorkflowActivated } from '#services/workflow_events'
import { activateEventTrigger } from '#services/workflows/event_triggers'
import { assertRunnableOnPlan } from './workflow_publishing.js'

export class ActivateWorkflow {
  /**
   * Lets the workflow's trigger start runs. Only a published workflow may be active, and
   * active workflows of the workspace count against workflowActivation.
   */
  async handle(user: User, workspace: Workspace, workflow: Workflow) {
    // A published version is enough: unpublished changes of the draft do not run.
    if (!workflow.executableWorkflow) {
      throw new AppError('Publish the workflow before activating it', {
        status: 409,
        code: 'E_NOT_PUBLISHED',
      })
    }
    if (workflow.isArchived) {
      throw new AppError('Archived workflows cannot be activated', {
        status: 409,
        code: 'E_ARCHIVED',
        description: 'Restore the workflow from the archive first.',
      })
    }
    if (workflow.isActive) return workflow
    await assertRunnableOnPlan(user, workspace, workflow.executableWorkflow)
    // The place is taken under the limit's lock, then the event trigger registers with its
    // service (a call that must not hold the lock); a refusal turns the workflow off again.
    await withinPlanLimit({ user, workspace }, 'workflowActivation', async (trx) => {
      workflow.useTransaction(trx)
      workflow.isActive = true
      await workflow.save()
    })
    try {
      await activateEventTrigger(workflow)
    } catch (error) {
      workflow.isActive = false
      await workflow.save()
      throw error
    }
    await emitWorkflowActivated({
      workflowId: workflow.id,
      workspaceId: workflow.workspaceId,
      executableWorkflow: workflow.executableWorkflow,
      settings: workflow.settings,
    })
    return workflow
  }
}
