import type Workspace from '#models/workspace'
import WorkspaceInvitation from '#models/workspace_invitation'
import WorkspaceMember from '#models/workspace_member'
import AppError from '#exceptions/app_error'
import type { WorkspaceRole } from '#shared/workspace_roles'
import { disconnectMember } from '#services/coedit/coedit_hub'

async function findMember(workspace: Workspace, userId: string) {
  const member = await WorkspaceMember.query()
    .where('workspace_id', workspace.id)
    .where('user_id', userId)
    .first()
  if (!member) throw AppError.notFound('Member not found')
  return member
}

async function assertAnotherAdminRemains(workspace: Workspace, userId: string) {
  const admins = await WorkspaceMember.query()
    .where('workspace_id', workspace.id)
    .where('role', 'ADMIN')
  if (admins.length === 1 && admins[0].userId === userId) {
    throw new AppError('A workspace needs an admin', {
      status: 400,
      code: 'E_LAST_ADMIN',
      description: 'Make another member admin first.',
    })
  }
}

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

export class RemoveMember {
  async handle(workspace: Workspace, userId: string) {
    const member = await findMember(workspace, userId)
    if (member.role === 'ADMIN') await assertAnotherAdminRemains(workspace, userId)
    await member.delete()
    // Their open editors of this workspace's drafts close now, not at their next request.
    disconnectMember(workspace.id, userId)
  }
}

export class RevokeInvitation {
  async handle(workspace: Workspace, invitationId: string) {
    const invitation = await WorkspaceInvitation.query()
      .where('workspace_id', workspace.id)
      .where('id', invitationId)
      .first()
    if (!invitation) throw AppError.notFound('Invitation not found')
    await invitation.delete()
  }
}
