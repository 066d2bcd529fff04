import Bot from '#models/bot'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { roleIn } from '#services/workspace_access'
import { userModeForRole } from '#shared/workspace_roles'

/**
 * Results are for members of the bot's workspace only (collaborators invited to one bot
 * do not see visitors' answers): any member reads and exports, write mode deletes and
 * archives. Anyone else gets "not found", so ids do not leak.
 */
export async function findBotForResults(
  user: User,
  botId: string,
  need: 'read' | 'write' = 'read'
) {
  const bot = await Bot.find(botId)
  if (!bot) throw AppError.notFound('Bot not found')
  const role = await roleIn(user, bot.workspaceId)
  if (role === null) throw AppError.notFound('Bot not found')
  const mode = userModeForRole(role)
  if (need === 'write' && mode !== 'write') {
    throw AppError.forbidden('You can only view this bot.')
  }
  return { bot, mode }
}
