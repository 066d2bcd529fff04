import type User from '#models/user'
import type Workspace from '#models/workspace'
import UserModel from '#models/user'
import WorkspaceInvitation from '#models/workspace_invitation'
import WorkspaceMember from '#models/workspace_member'
import AppError from '#exceptions/app_error'
import { withinPlanLimit } from '#services/plan_limits'
import { sendMail } from '#services/mailer'
import { appUrl } from '#config/app'
import { normaliseEmail } from '#actions/users/find_or_create_user'
import type { WorkspaceRole } from '#shared/workspace_roles'

export const emailRequiredError = () =>
  new AppError('Email required', {
    status: 422,
    code: 'E_EMAIL_REQUIRED',
    description: 'Please enter an email address to send the invitation.',
    field: 'email',
  })

export default class InviteMember {
  /**
   * Invites by e-mail. Someone who has an account joins at once; anyone else gets an
   * invitation that turns into a membership when they sign up with that e-mail.
   * Members plus pending invitations must stay below the plan's multipleUser.
   */
  async handle(
    actor: User,
    workspace: Workspace,
    input: { email?: string | null; role?: WorkspaceRole }
  ) {
    if (!input.email?.trim()) throw emailRequiredError()
    const email = normaliseEmail(input.email)
    const role = input.role ?? 'MEMBER'

    const members = await WorkspaceMember.query()
      .where('workspace_id', workspace.id)
      .preload('user')
    if (members.some((m) => m.user.email === email)) {
      throw new AppError('Already a member', {
        status: 409,
        code: 'E_ALREADY_MEMBER',
        description: 'This person is already a member of this workspace.',
        field: 'email',
      })
    }
    const pending = await WorkspaceInvitation.query().where('workspace_id', workspace.id)
    if (pending.some((i) => i.email === email)) {
      throw new AppError('Already invited', {
        status: 409,
        code: 'E_ALREADY_INVITED',
        description: 'This person has already been invited.',
        field: 'email',
      })
    }
    const existing = await UserModel.findBy('email', email)
    const inviter = actor.name || actor.email
    if (existing) {
      const member = await withinPlanLimit({ user: actor, workspace }, 'multipleUser', (trx) =>
        WorkspaceMember.create(
          { workspaceId: workspace.id, userId: existing.id, role },
          { client: trx }
        )
      )
      await sendMail({
        to: email,
        subject: `You joined ${workspace.name}`,
        text: `${inviter} added you to the workspace "${workspace.name}".\n\nOpen it: ${appUrl}/bots?workspaceId=${workspace.id}`,
      })
      return { kind: 'member' as const, member }
    }
    const invitation = await withinPlanLimit({ user: actor, workspace }, 'multipleUser', (trx) =>
      WorkspaceInvitation.create(
        { workspaceId: workspace.id, email, role, createdBy: actor.id },
        { client: trx }
      )
    )
    await sendMail({
      to: email,
      subject: `${inviter} invited you to ${workspace.name}`,
      text:
        `${inviter} invited you to join the workspace "${workspace.name}".\n\n` +
        `Create your account with this e-mail address to join: ${appUrl}/register?email=${encodeURIComponent(email)}`,
    })
    return { kind: 'invitation' as const, invitation }
  }
}
