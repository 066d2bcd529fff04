import type { HttpContext } from '@adonisjs/core/http'
import Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import InviteMember, { emailRequiredError } from '#actions/workspaces/invite_member'
import { RemoveMember } from '#actions/workspaces/remove_member'
import { RevokeInvitation } from '#actions/workspaces/revoke_invitation'
import { UpdateMemberRole } from '#actions/workspaces/update_member_role'
import { inviteMemberValidator, updateMemberValidator } from '#validators/workspace'

async function loadManaged({ bouncer, params }: HttpContext) {
  const workspace = await Workspace.find(params.id)
  if (!workspace) throw AppError.notFound('Workspace not found')
  if (await bouncer.with('WorkspacePolicy').denies('view', workspace))
    throw AppError.notFound('Workspace not found')
  await bouncer.with('WorkspacePolicy').authorize('manageMembers', workspace)
  return workspace
}

export default class MembersController {
  async invite(ctx: HttpContext) {
    const workspace = await loadManaged(ctx)
    const raw = ctx.request.input('email')
    if (typeof raw !== 'string' || !raw.trim()) throw emailRequiredError()
    const payload = await ctx.request.validateUsing(inviteMemberValidator)
    const result = await new InviteMember().handle(ctx.auth.user!, workspace, payload)
    ctx.session.flash('toast', {
      type: 'success',
      title: result.kind === 'member' ? 'Member added' : 'Invitation sent',
      description: payload.email,
    })
    return ctx.response.redirect().withQs().back()
  }

  async update(ctx: HttpContext) {
    const workspace = await loadManaged(ctx)
    const { role } = await ctx.request.validateUsing(updateMemberValidator)
    await new UpdateMemberRole().handle(workspace, ctx.params.userId, role)
    ctx.session.flash('toast', { type: 'success', title: 'Role updated' })
    return ctx.response.redirect().withQs().back()
  }

  async destroy(ctx: HttpContext) {
    const workspace = await loadManaged(ctx)
    await new RemoveMember().handle(workspace, ctx.params.userId)
    ctx.session.flash('toast', { type: 'success', title: 'Member removed' })
    return ctx.response.redirect().withQs().back()
  }

  async revokeInvitation(ctx: HttpContext) {
    const workspace = await loadManaged(ctx)
    await new RevokeInvitation().handle(workspace, ctx.params.invitationId)
    ctx.session.flash('toast', { type: 'success', title: 'Invitation cancelled' })
    return ctx.response.redirect().withQs().back()
  }
}
