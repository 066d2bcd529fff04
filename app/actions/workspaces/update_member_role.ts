import type Workspace from '#models/workspace'
import type { WorkspaceRole } from '#shared/workspace_roles'
import { findMember, assertAnotherAdminRemains } from './manage_members.js'

export class UpdateMemberRole {
  async handle(workspace: Workspace, userId: string, role: WorkspaceRole) {
    const member = await findMember(workspace, userId)
    if (member.role === 'ADMIN' && role !== 'ADMIN')
      await assertAnotherAdminRemains(workspace, userId)
    member.role = role
    await member.save()
    return member
  }
}
