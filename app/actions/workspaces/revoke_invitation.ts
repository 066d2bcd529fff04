import type Workspace from '#models/workspace'
import WorkspaceInvitation from '#models/workspace_invitation'
import AppError from '#exceptions/app_error'

export class RevokeInvitation {
  async handle(workspace: Workspace, invitationId: string) {
    const invitation = await WorkspaceInvitation.query()
      .where('workspace_id', workspace.id)
      .where('id', invitationId)
      .first()
    if (!invitation) throw AppError.notFound('Invitation not found')
    await invitation.delete()
  }
}
