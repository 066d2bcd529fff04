import User from '#models/user'
import Folder from '#models/folder'
import { BasePolicy } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import { roleIn } from '#services/workspace_access'
import { folderVisibilityFor } from '#services/folder_access'
import type { WorkspaceRole } from '#shared/workspace_roles'

/** Whether `role` lets the user manage the folder's sharing: admins, and its creator. */
export function sharesFolder(user: User, role: WorkspaceRole | null, folder: Folder) {
  if (role === 'ADMIN') return true
  return role !== null && folder.createdBy === user.id
}

/**
 * Folders shared with chosen members (docs/folder_sharing.md): members see the folders open
 * to everyone and those shared with them; admins and the folder's creator manage its sharing.
 */
export default class FolderPolicy extends BasePolicy {
  async view(user: User, folder: Folder): Promise<AuthorizerResponse> {
    const role = await roleIn(user, folder.workspaceId)
    if (role === null) return false
    return (await folderVisibilityFor(user.id, folder.workspaceId, role)).sees(folder.id)
  }

  async share(user: User, folder: Folder): Promise<AuthorizerResponse> {
    return sharesFolder(user, await roleIn(user, folder.workspaceId), folder)
  }
}
