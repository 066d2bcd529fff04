import User from '#models/user'
import Workspace from '#models/workspace'
import { BasePolicy } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import { roleIn } from '#services/workspace_access'

/**
 * Workspace-scoped reads need membership; settings, members, billing and deletion need the
 * ADMIN role.
 */
export default class WorkspacePolicy extends BasePolicy {
  async view(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    return (await roleIn(user, workspace.id)) !== null
  }

  /** New bots and workflows (imports included): members and admins, not guests. */
  async createContent(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    const role = await roleIn(user, workspace.id)
    return role !== null && role !== 'GUEST'
  }

  async edit(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    return (await roleIn(user, workspace.id)) === 'ADMIN'
  }

  async manageMembers(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    return (await roleIn(user, workspace.id)) === 'ADMIN'
  }

  /** Buying a plan, the billing portal and the invoices (docs/billing.md). */
  async manageBilling(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    return (await roleIn(user, workspace.id)) === 'ADMIN'
  }

  async delete(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    return (await roleIn(user, workspace.id)) === 'ADMIN'
  }
}
