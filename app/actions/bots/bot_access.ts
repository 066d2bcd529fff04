import Bot from '#models/bot'
import BotInvitation, { userModeForInvitation } from '#models/bot_invitation'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { roleIn } from '#services/workspace_access'
import { userModeForRole, type UserMode, type WorkspaceRole } from '#shared/workspace_roles'
import { folderAccessOnBot, modeInFolder } from '#services/folder_access'

/** The invitation to this bot for the user's e-mail, if any (bot-level collaborators). */
export async function invitationFor(user: User, botId: string) {
  return BotInvitation.query().where('bot_id', botId).where('email', user.email).first()
}

/**
 * A member's mode on a bot from their workspace role, narrowed by the folder the bot sits in
 * (docs/folder_sharing.md): null when that folder is not shared with them.
 */
export async function memberModeOnBot(
  user: User,
  bot: Bot,
  role: WorkspaceRole
): Promise<UserMode | null> {
  const access = await folderAccessOnBot(user.id, bot, role)
  return access ? modeInFolder(userModeForRole(role), access) : null
}

/**
 * The user's mode on a bot: from their workspace role (and the bot's folder), else from an
 * invitation to that bot (Full access and Can edit write, Can view reads); null when they
 * have neither.
 */
export async function botModeFor(user: User, bot: Bot): Promise<UserMode | null> {
  const role = await roleIn(user, bot.workspaceId)
  const memberMode = role !== null ? await memberModeOnBot(user, bot, role) : null
  if (memberMode !== null) return memberMode
  const invitation = await invitationFor(user, bot.id)
  return invitation ? userModeForInvitation(invitation.type) : null
}

/**
 * Whether the user may delete or duplicate the bot: members who edit the workspace's bots,
 * and people invited with Full access. "Can edit" invitees change the flow, nothing more.
 */
export async function canManageBot(user: User, bot: Bot): Promise<boolean> {
  const role = await roleIn(user, bot.workspaceId)
  const memberMode = role !== null ? await memberModeOnBot(user, bot, role) : null
  if (memberMode !== null) return memberMode === 'write'
  const invitation = await invitationFor(user, bot.id)
  return invitation?.type === 'FULL_ACCESS'
}

/**
 * Loads a bot with the user's mode on it (write, read or guest). Bots the user has no
 * access to are "not found", so ids do not leak. `manage` is for deleting and duplicating
 * (canManageBot).
 */
export async function findBotFor(
  user: User,
  botId: string,
  need: 'read' | 'write' | 'manage' = 'read'
) {
  const bot = await Bot.find(botId)
  if (!bot) throw AppError.notFound('Bot not found')
  const mode = await botModeFor(user, bot)
  if (mode === null) throw AppError.notFound('Bot not found')
  if (need !== 'read' && mode !== 'write') {
    throw AppError.forbidden('You can only view this bot.')
  }
  if (need === 'manage' && !(await canManageBot(user, bot))) {
    throw AppError.forbidden('Only people with full access can delete or duplicate this bot.')
  }
  return { bot, mode }
}
