import Bot from '#models/bot'
import BotInvitation, { type BotInvitationType } from '#models/bot_invitation'
import type User from '#models/user'
import UserModel from '#models/user'
import AppError from '#exceptions/app_error'
import { invitationFor } from '#actions/bots/bot_access'
import { emailRequiredError } from '#actions/workspaces/invite_member'
import { normaliseEmail } from '#actions/users/find_or_create_user'
import { membershipOf, roleIn } from '#services/workspace_access'
import { sendMail } from '#services/mailer'
import { appUrl } from '#config/app'
import { userModeForRole } from '#shared/workspace_roles'

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

/**
 * The bot whose collaborators the user may change: members who write in its workspace and
 * people invited with full access. Everyone else without access gets "not found".
 */
export async function findBotToShare(user: User, botId: string) {
  const bot = await Bot.find(botId)
  if (!bot) throw AppError.notFound('Bot not found')
  const role = await roleIn(user, bot.workspaceId)
  if (role !== null) {
    if (userModeForRole(role) !== 'write') throw AppError.forbidden('You can only view this bot.')
    return bot
  }
  const invitation = await invitationFor(user, bot.id)
  if (!invitation) throw AppError.notFound('Bot not found')
  if (invitation.type !== 'FULL_ACCESS') {
    throw AppError.forbidden('Only collaborators with full access can share this bot.')
  }
  return bot
}

async function findInvitationOf(bot: Bot, invitationId: string) {
  const invitation = await BotInvitation.query()
    .where('id', invitationId)
    .where('bot_id', bot.id)
    .first()
  if (!invitation) throw AppError.notFound('Invitation not found')
  return invitation
}

export class ListBotInvitations {
  async handle(bot: Bot) {
    return BotInvitation.query()
      .where('bot_id', bot.id)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
  }
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

export class UpdateBotInvitation {
  async handle(bot: Bot, invitationId: string, type: BotInvitationType) {
    const invitation = await findInvitationOf(bot, invitationId)
    invitation.type = type
    await invitation.save()
    return invitation
  }
}

export class RevokeBotInvitation {
  async handle(bot: Bot, invitationId: string) {
    const invitation = await findInvitationOf(bot, invitationId)
    await invitation.delete()
  }
}
