import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { userModeForRole, type UserMode, type WorkspaceRole } from '#shared/workspace_roles'

export async function membershipOf(userId: string, workspaceId: string) {
  return WorkspaceMember.query().where('workspace_id', workspaceId).where('user_id', userId).first()
}

export async function roleIn(user: User, workspaceId: string): Promise<WorkspaceRole | null> {
  return (await membershipOf(user.id, workspaceId))?.role ?? null
}

export async function userModeIn(user: User, workspaceId: string): Promise<UserMode> {
  return userModeForRole(await roleIn(user, workspaceId))
}

/** The workspaces a user belongs to, oldest first (the "first workspace" of the selection order). */
export async function workspacesOf(user: User) {
  return Workspace.query()
    .join('workspace_members', 'workspace_members.workspace_id', 'workspaces.id')
    .where('workspace_members.user_id', user.id)
    .select('workspaces.*', 'workspace_members.role as member_role')
    .orderBy('workspaces.created_at', 'asc')
    .orderBy('workspaces.id', 'asc')
}

/** Loads a workspace the user belongs to; anything else is "not found", so ids do not leak. */
export async function findWorkspaceFor(user: User, workspaceId: string) {
  const workspace = await Workspace.find(workspaceId)
  if (!workspace) throw AppError.notFound('Workspace not found')
  const member = await membershipOf(user.id, workspace.id)
  if (!member) throw AppError.notFound('Workspace not found')
  return { workspace, role: member.role }
}
