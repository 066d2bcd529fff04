import Folder from '#models/folder'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { assertFeature } from '#services/capabilities'
import { findFolderIn } from './folders.js'

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
