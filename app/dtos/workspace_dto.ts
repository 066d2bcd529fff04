import type Workspace from '#models/workspace'
import type User from '#models/user'
import type WorkspaceMember from '#models/workspace_member'
import type WorkspaceInvitation from '#models/workspace_invitation'
import { remainingDays } from '#services/plans'
import { userModeForRole, type WorkspaceRole } from '#shared/workspace_roles'
import type { InvitationDto, MemberDto, WorkspaceDto, WorkspaceSummaryDto } from '#shared/types'

export function toWorkspaceSummaryDto(
  workspace: Workspace,
  role: WorkspaceRole
): WorkspaceSummaryDto {
  return {
    id: workspace.id,
    name: workspace.name,
    icon: workspace.icon,
    plan: workspace.plan,
    role,
  }
}

export function toWorkspaceDto(
  workspace: Workspace,
  role: WorkspaceRole,
  user: User
): WorkspaceDto {
  return {
    ...toWorkspaceSummaryDto(workspace, role),
    createdBy: workspace.createdBy,
    isOwner: workspace.createdBy === user.id,
    isSuspended: !!workspace.isSuspended,
    isPastDue: !!workspace.isPastDue,
    userMode: userModeForRole(role),
    planEndsAt: workspace.planEndsAt?.toISO() ?? null,
    remainingDays: remainingDays(workspace.planEndsAt),
    createdAt: workspace.createdAt.toISO()!,
  }
}

export function toMemberDto(member: WorkspaceMember, workspace: Workspace): MemberDto {
  return {
    userId: member.userId,
    email: member.user.email,
    name: member.user.name,
    image: member.user.image,
    role: member.role,
    isOwner: workspace.createdBy === member.userId,
    createdAt: member.createdAt.toISO()!,
  }
}

export function toInvitationDto(invitation: WorkspaceInvitation): InvitationDto {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: invitation.createdAt.toISO()!,
  }
}
