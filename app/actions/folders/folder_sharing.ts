import { sharesFolder } from '#policies/folder_policy'
import db from '@adonisjs/lucid/services/db'
import Folder from '#models/folder'
import FolderShare from '#models/folder_share'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { assertFeature } from '#services/capabilities'
import { roleIn } from '#services/workspace_access'
import type { FolderAccess } from '#shared/folder_access'

/** The folder's creator and the workspace's admins manage who it is shared with. */
export async function canManageFolderSharing(user: User, folder: Folder) {
  return sharesFolder(user, await roleIn(user, folder.workspaceId), folder)
}

/** The Share dialog's state: restricted or not, the shares, and the members to pick from. */
export async function folderSharingOf(folder: Folder) {
  const members = await WorkspaceMember.query()
    .where('workspace_id', folder.workspaceId)
    .preload('user')
    .orderBy('created_at', 'asc')
  const shares = await FolderShare.query().where('folder_id', folder.id)
  const access = new Map(shares.map((s) => [s.userId, s.access]))
  return {
    isRestricted: folder.isRestricted,
    createdBy: folder.createdBy,
    members: members.map((m) => ({
      userId: m.userId,
      name: m.user.name,
      email: m.user.email,
      role: m.role,
      access: access.get(m.userId) ?? null,
    })),
  }
}

export class UpdateFolderSharing {
  /**
   * Replaces the folder's sharing: restricted to the listed members (userWiseFolderShare
   * must be on the plan), or open to every member again, which any plan allows so that a
   * downgraded workspace can undo it. Admins and the creator need no share: they always see it.
   */
  async handle(
    user: User,
    workspace: Workspace,
    folder: Folder,
    input: { isRestricted: boolean; shares: { userId: string; access: FolderAccess }[] }
  ) {
    if (!(await canManageFolderSharing(user, folder))) {
      throw AppError.forbidden('Only the folder’s creator and workspace admins can share it.')
    }
    if (input.isRestricted) await assertFeature(user, workspace, 'userWiseFolderShare')
    const wanted = new Map(input.shares.map((s) => [s.userId, s.access]))
    const members = await WorkspaceMember.query()
      .where('workspace_id', folder.workspaceId)
      .whereIn('user_id', [...wanted.keys()])
      .select('user_id')
    const memberIds = new Set(members.map((m) => m.userId))
    for (const userId of wanted.keys()) {
      if (!memberIds.has(userId)) {
        throw new AppError('Not a member of this workspace', { status: 422, field: 'shares' })
      }
    }
    await db.transaction(async (trx) => {
      folder.useTransaction(trx)
      folder.isRestricted = input.isRestricted
      await folder.save()
      await FolderShare.query({ client: trx }).where('folder_id', folder.id).delete()
      if (input.isRestricted && wanted.size > 0) {
        await FolderShare.createMany(
          [...wanted].map(([userId, access]) => ({ folderId: folder.id, userId, access })),
          { client: trx }
        )
      }
    })
    return folderSharingOf(folder)
  }
}
