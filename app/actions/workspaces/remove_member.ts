import type Workspace from '#models/workspace'
import { findMember, assertAnotherAdminRemains } from './manage_members.js'

export class RemoveMember {
  async handle(workspace: Workspace, userId: string) {
    const member = await findMember(workspace, userId)
    if (member.role === 'ADMIN') await assertAnotherAdminRemains(workspace, userId)
    await member.delete()
  }
}
