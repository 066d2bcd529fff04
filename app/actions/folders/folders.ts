import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import Folder from '#models/folder'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { assertFeature } from '#services/capabilities'

export async function findFolderIn(workspaceId: string, folderId: string) {
  const folder = await Folder.query()
    .where('id', folderId)
    .where('workspace_id', workspaceId)
    .first()
  if (!folder) throw AppError.notFound('Folder not found')
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
      ? await findFolderIn(workspace.id, input.parentFolderId)
      : null
    return Folder.create({
      workspaceId: workspace.id,
      parentFolderId: parent?.id ?? null,
      name: input.name?.trim() || 'My folder',
    })
  }
}

export class UpdateFolder {
  async handle(folder: Folder, input: { name?: string; parentFolderId?: string | null }) {
    if (input.name !== undefined && input.name.trim()) folder.name = input.name.trim()
    if (input.parentFolderId !== undefined) {
      if (input.parentFolderId === null) folder.parentFolderId = null
      else {
        const parent = await findFolderIn(folder.workspaceId, input.parentFolderId)
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
