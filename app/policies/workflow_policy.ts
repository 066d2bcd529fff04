import type Workflow from '#models/workflow'
import type User from '#models/user'
import { AuthorizationResponse, BasePolicy } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import { roleIn } from '#services/workspace_access'
import { userModeForRole, type UserMode } from '#shared/workspace_roles'

/** Modes already worked out, per loaded workflow and user (see bot_policy.ts). */
const modes = new WeakMap<Workflow, Map<string, Promise<UserMode | null>>>()

/** The user's mode on a workflow, by workspace role; null outside its workspace. */
export function workflowModeOn(user: User, workflow: Workflow): Promise<UserMode | null> {
  let byUser = modes.get(workflow)
  if (!byUser) modes.set(workflow, (byUser = new Map()))
  let mode = byUser.get(user.id)
  if (!mode) {
    mode = roleIn(user, workflow.workspaceId).then((role) =>
      role === null ? null : userModeForRole(role)
    )
    byUser.set(user.id, mode)
  }
  return mode
}

const NOT_FOUND = () => AuthorizationResponse.deny('Workflow not found', 404)

/**
 * Workflows belong to a workspace: its members see them (others get "not found", so ids do
 * not leak); admins and members change, run and publish them; guests only look.
 */
export default class WorkflowPolicy extends BasePolicy {
  async view(user: User, workflow: Workflow): Promise<AuthorizerResponse> {
    return (await workflowModeOn(user, workflow)) === null ? NOT_FOUND() : true
  }

  async edit(user: User, workflow: Workflow): Promise<AuthorizerResponse> {
    const mode = await workflowModeOn(user, workflow)
    if (mode === null) return NOT_FOUND()
    return mode === 'write' || AuthorizationResponse.deny('You can only view this workflow.', 403)
  }
}
