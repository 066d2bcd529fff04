import Bot from '#models/bot'
import BotInvitation, { type BotInvitationType } from '#models/bot_invitation'
import type User from '#models/user'
import UserModel from '#models/user'
import AppError from '#exceptions/app_error'
import { emailRequiredError } from '#actions/workspaces/invite_member'
import { normaliseEmail } from '#actions/users/find_or_create_user'
import { membershipOf } from '#services/workspace_access'
import { sendMail } from '#services/mailer'
import { appUrl } from '#config/app'

/*
 * Bot-level collaborators: people outside the workspace invited by
 * e-mail with Full access, Can edit or Can view. The invitation itself grants the access
 * (app/actions/bots/bot_access.ts), so it works before the person has an account.
 */

const TYPE_LABELS: Record<BotInvitationType, string> = {
  FULL_ACCESS: 'full access',
  WRITE: 'edit access',
  READ: 'view access',
}

export class InviteToBot {
  async handle(actor: User, bot: Bot, input: { email?: string | null; type?: BotInvitationType }) {
    if (!input.email?.trim()) throw emailRequiredError()
    const email = normaliseEmail(input.email)
    const type = input.type ?? 'READ'

    // Workspace members already have their own mode on every bot of the workspace.
    const existing = await UserModel.findBy('email', email)
    if (existing && (await membershipOf(existing.id, bot.workspaceId))) {
      throw new AppError('Already a member', {
        status: 409,
        code: 'E_ALREADY_MEMBER',
        description: 'This person is already a member of this workspace.',
        field: 'email',
      })
    }
    if (await BotInvitation.query().where('bot_id', bot.id).where('email', email).first()) {
      throw new AppError('Already invited', {
        status: 409,
        code: 'E_ALREADY_INVITED',
        description: 'This person has already been invited.',
        field: 'email',
      })
    }

    const invitation = await BotInvitation.create({
      botId: bot.id,
      email,
      type,
      createdBy: actor.id,
    })
    const inviter = actor.name || actor.email
    await sendMail({
      to: email,
      subject: `${inviter} shared the bot "${bot.name}" with you`,
      text:
        `${inviter} gave you ${TYPE_LABELS[type]} to the bot "${bot.name}".\n\n` +
        `Sign in with this e-mail address to open it: ${appUrl}/bots/${bot.id}/edit`,
    })
    return invitation
  }
}
