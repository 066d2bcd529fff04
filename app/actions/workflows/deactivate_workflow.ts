import type Workflow from '#models/workflow'
import { emitWorkflowDeactivated } from '#services/workflow_events'

export class DeactivateWorkflow {
  async handle(workflow: Workflow) {
    if (!workflow.isActive) return workflow
    workflow.isActive = false
    await workflow.save()
    await emitWorkflowDeactivated({
      workflowId: workflow.id,
      workspaceId: workflow.workspaceId,
      reason: 'deactivated',
    })
    return workflow
  }
}
