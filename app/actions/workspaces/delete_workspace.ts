import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { workspacesOf } from '#services/workspace_access'

export default class DeleteWorkspace {
  /**
   * Deletes the workspace with its folders, bots and results (foreign keys cascade).
   * A person must keep at least one workspace, so deleting needs at least two.
   */
  async handle(actor: User, workspace: Workspace) {
    const mine = await workspacesOf(actor)
    if (mine.length < 2) {
      throw new AppError('Cannot delete your only workspace', {
        status: 400,
        code: 'E_LAST_WORKSPACE',
        description: 'You need at least 2 workspaces to delete one.',
      })
    }
    await workspace.delete()
  }
}
