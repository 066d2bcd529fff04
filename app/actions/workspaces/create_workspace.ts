import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import { withinPlanLimit } from '#services/plan_limits'
import { defaultPlanName, getPlan, planEndDate } from '#services/plans'
import { workspacesOf } from '#services/workspace_access'
import { defaultWorkspaceName, uniqueName } from '#actions/workspaces/default_workspace_name'
import { track } from '#services/analytics/analytics'

export interface CreateWorkspaceInput {
  name?: string | null
  icon?: string | null
}

export default class CreateWorkspace {
  /**
   * Creates a workspace owned by `user`, who becomes its ADMIN. The count of workspaces the
   * user created is checked against their account plan (planFor without a workspace),
   * which must not have expired. The new workspace starts on the default plan.
   */
  async handle(user: User, input: CreateWorkspaceInput = {}) {
    const taken = (await workspacesOf(user)).map((w) => w.name)
    const name = input.name?.trim()
      ? uniqueName(input.name.trim(), taken)
      : defaultWorkspaceName(user.name, taken, user.email)
    const plan = await getPlan(defaultPlanName())

    const workspace = await withinPlanLimit(
      { user, workspace: null },
      'multipleWorkspace',
      async (trx) => {
        const made = await Workspace.create(
          {
            name,
            icon: input.icon ?? null,
            plan: plan.name,
            planEndsAt: planEndDate(plan),
            createdBy: user.id,
            isSuspended: false,
            isPastDue: false,
            isVerified: false,
          },
          { client: trx }
        )
        await WorkspaceMember.create(
          { workspaceId: made.id, userId: user.id, role: 'ADMIN' },
          { client: trx }
        )
        return made
      },
      { requireActivePlan: true }
    )
    track({
      name: 'Workspace created',
      userId: user.id,
      workspaceId: workspace.id,
      properties: { plan: workspace.plan },
    })
    return workspace
  }
}
