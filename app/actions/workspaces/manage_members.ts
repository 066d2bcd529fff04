import type Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import AppError from '#exceptions/app_error'

export async function findMember(workspace: Workspace, userId: string) {
  const member = await WorkspaceMember.query()
    .where('workspace_id', workspace.id)
    .where('user_id', userId)
    .first()
  if (!member) throw AppError.notFound('Member not found')
  return member
}

export async function assertAnotherAdminRemains(workspace: Workspace, userId: string) {
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
