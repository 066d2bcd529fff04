import Folder from '#models/folder'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { findFolderIn } from './folders.js'

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
