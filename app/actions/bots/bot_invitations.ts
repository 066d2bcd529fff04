import Bot from '#models/bot'
import BotInvitation from '#models/bot_invitation'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { invitationFor } from '#policies/bot_policy'
import { roleIn } from '#services/workspace_access'
import { userModeForRole } from '#shared/workspace_roles'

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

export async function findInvitationOf(bot: Bot, invitationId: string) {
  const invitation = await BotInvitation.query()
    .where('id', invitationId)
    .where('bot_id', bot.id)
    .first()
  if (!invitation) throw AppError.notFound('Invitation not found')
  return invitation
}
