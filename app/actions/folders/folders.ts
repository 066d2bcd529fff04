import Folder from '#models/folder'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
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
