import type Workspace from '#models/workspace'
import { findMember, assertAnotherAdminRemains } from './manage_members.js'
import { disconnectMember } from '#actions/coedit/coedit_hub'

export class RemoveMember {
  async handle(workspace: Workspace, userId: string) {
    const member = await findMember(workspace, userId)
    if (member.role === 'ADMIN') await assertAnotherAdminRemains(workspace, userId)
    await member.delete()
    // Their open editors of this workspace's drafts close now, not at their next request.
    disconnectMember(workspace.id, userId)
  }
}
