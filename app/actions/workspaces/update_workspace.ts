import type User from '#models/user'
import type Workspace from '#models/workspace'

export default class UpdateWorkspace {
  /** Renames the workspace or changes its icon (authorisation is the caller's: ADMIN only). */
  async handle(_actor: User, workspace: Workspace, input: { name?: string; icon?: string | null }) {
    if (input.name !== undefined) workspace.name = input.name
    if (input.icon !== undefined) workspace.icon = input.icon
    await workspace.save()
    return workspace
  }
}
