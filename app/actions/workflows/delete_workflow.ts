import Workflow from '#models/workflow'
import { emitWorkflowDeactivated } from '#services/workflow_events'

export class DeleteWorkflow {
  /** Its history goes with it (and its runs, by their foreign keys). */
  async handle(workflow: Workflow) {
    const wasActive = !!workflow.isActive
    await workflow.delete()
    if (wasActive) {
      await emitWorkflowDeactivated({
        workflowId: workflow.id,
        workspaceId: workflow.workspaceId,
        reason: 'deleted',
      })
    }
  }
}
