import { Bouncer } from '@adonisjs/bouncer'
import type User from '#models/user'
import { isAdminEmail } from '#services/admins'
import { userModeForRole, type WorkspaceRole } from '#shared/workspace_roles'

/** Instance admins (ADMIN_EMAILS) reach /admin pages. */
export const accessAdmin = Bouncer.ability((user: User) => isAdminEmail(user.email))

/** A member as the request already knows them (resolveCurrentWorkspace, findWorkspaceFor). */
interface Member {
  role: WorkspaceRole | null
}

/**
 * Creating and changing a workspace's bots, workflows and folders: admins and members; guests
 * only look. Takes the role the request read already, so the check costs no query.
 */
export const authorIn = Bouncer.ability(
  (_user: User, member: Member) => userModeForRole(member.role) === 'write'
)
