import Workflow from '#models/workflow'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { withinPlanLimit } from '#services/plan_limits'
import { emitWorkflowDeactivated } from '#services/workflow_events'

export class ArchiveWorkflow {
  /**
   * Archived workflows stop running and leave the list; bringing one back counts against
   * workflowCreation again.
   */
  async handle(user: User, workspace: Workspace, workflow: Workflow, archived = true) {
    if (!!workflow.isArchived === archived) return workflow
    const wasActive = !!workflow.isActive
    if (!archived) {
      await withinPlanLimit({ user, workspace }, 'workflowCreation', async (trx) => {
        workflow.useTransaction(trx)
        workflow.isArchived = false
        await workflow.save()
      })
      return workflow
    }
    workflow.merge({ isArchived: true, isActive: false })
    await workflow.save()
    if (archived && wasActive) {
      await emitWorkflowDeactivated({
        workflowId: workflow.id,
        workspaceId: workflow.workspaceId,
        reason: 'archived',
      })
    }
    return workflow
  }
}
