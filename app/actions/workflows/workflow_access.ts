import Workflow from '#models/workflow'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { roleIn } from '#services/workspace_access'
import { userModeForRole, type UserMode } from '#shared/workspace_roles'

/**
 * Loads a workflow with the user's mode on it (write or read, by workspace role).
 * Workflows of workspaces the user is not in are "not found", so ids do not leak.
 */
export async function findWorkflowFor(
  user: User,
  workflowId: string,
  need: 'read' | 'write' = 'read'
) {
  const workflow = await Workflow.find(workflowId)
  if (!workflow) throw AppError.notFound('Workflow not found')
  const role = await roleIn(user, workflow.workspaceId)
  if (role === null) throw AppError.notFound('Workflow not found')
  const mode: UserMode = userModeForRole(role)
  if (need === 'write' && mode !== 'write') {
    throw AppError.forbidden('You can only view this workflow.')
  }
  return { workflow, mode }
}
