import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import Folder from '#models/folder'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { assertFeature } from '#services/capabilities'
import { roleIn } from '#services/workspace_access'
import { folderVisibilityFor } from '#services/folder_access'
import type { FolderAccess } from '#shared/folder_access'

/**
 * Refuses a folder the user may not see ("not found", so ids do not leak) or may only view
 * when `need` is edit (docs/folder_sharing.md).
 */
export async function assertFolderAccess(
  user: User,
  folder: Pick<Folder, 'id' | 'workspaceId'>,
  need: FolderAccess,
  field?: string
) {
  const role = await roleIn(user, folder.workspaceId)
  const access = (await folderVisibilityFor(user.id, folder.workspaceId, role)).of(folder.id)
  if (!access || role === null) {
    throw new AppError('Folder not found', { status: 404, code: 'E_NOT_FOUND', field })
  }
  if (need === 'edit' && access === 'view') {
    throw AppError.forbidden('You can only view this folder.')
  }
}

/**
 * A folder of the workspace; with `viewer`, also one that user may see (or edit, with
 * need 'edit'), else "not found".
 */
export async function findFolderIn(
  workspaceId: string,
  folderId: string,
  viewer?: { user: User; need?: FolderAccess }
) {
  const folder = await Folder.query()
    .where('id', folderId)
    .where('workspace_id', workspaceId)
    .first()
  if (!folder) throw AppError.notFound('Folder not found')
  if (viewer) await assertFolderAccess(viewer.user, folder, viewer.need ?? 'view')
  return folder
}

export class CreateFolder {
  /** Folders need the plan's workspaceWithFolder; the default name is 'My folder'. */
  async handle(
    user: User,
    workspace: Workspace,
    input: { name?: string | null; parentFolderId?: string | null }
  ) {
    await assertFeature(user, workspace, 'workspaceWithFolder')
    const parent = input.parentFolderId
      ? await findFolderIn(workspace.id, input.parentFolderId, { user, need: 'edit' })
      : null
    return Folder.create({
      workspaceId: workspace.id,
      parentFolderId: parent?.id ?? null,
      name: input.name?.trim() || 'My folder',
      createdBy: user.id,
    })
  }
}

export class UpdateFolder {
  /** `user` is who moves it: the new parent must be a folder they edit. */
  async handle(
    folder: Folder,
    input: { name?: string; parentFolderId?: string | null },
    user?: User
  ) {
    if (input.name !== undefined && input.name.trim()) folder.name = input.name.trim()
    if (input.parentFolderId !== undefined) {
      if (input.parentFolderId === null) folder.parentFolderId = null
      else {
        const parent = await findFolderIn(
          folder.workspaceId,
          input.parentFolderId,
          user ? { user, need: 'edit' } : undefined
        )
        // A folder cannot move into itself or one of its descendants.
        for (let cursor: Folder | null = parent; cursor;) {
          if (cursor.id === folder.id) {
            throw new AppError('Cannot move a folder into itself', {
              status: 400,
              field: 'parentFolderId',
            })
          }
          cursor = cursor.parentFolderId ? await Folder.find(cursor.parentFolderId) : null
        }
        folder.parentFolderId = parent.id
      }
    }
    await folder.save()
    return folder
  }
}

export class DeleteFolder {
  /** Its bots and sub-folders move to the dashboard (the top level); nothing is deleted with it. */
  async handle(folder: Folder) {
    await db.transaction(async (trx) => {
      await Bot.query({ client: trx }).where('folder_id', folder.id).update({ folder_id: null })
      await Folder.query({ client: trx })
        .where('parent_folder_id', folder.id)
        .update({ parent_folder_id: null })
      await folder.useTransaction(trx).delete()
    })
  }
}
