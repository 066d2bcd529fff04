import Workflow from '#models/workflow'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { bouncerFor, refusal } from '#policies/bouncer_for'
import WorkflowPolicy, { workflowModeOn } from '#policies/workflow_policy'

/**
 * Loads a workflow with the user's mode on it (write or read), as WorkflowPolicy allows:
 * workflows of workspaces the user is not in are "not found", so ids do not leak.
 */
export async function findWorkflowFor(
  user: User,
  workflowId: string,
  need: 'read' | 'write' = 'read'
) {
  const workflow = await Workflow.find(workflowId)
  if (!workflow) throw AppError.notFound('Workflow not found')
  const answer = await bouncerFor(user)
    .with(WorkflowPolicy)
    .execute(need === 'write' ? 'edit' : 'view', workflow)
  if (!answer.authorized) throw refusal(answer)
  return { workflow, mode: (await workflowModeOn(user, workflow))! }
}
