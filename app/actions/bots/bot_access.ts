import Bot from '#models/bot'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { roleIn } from '#services/workspace_access'
import { userModeForRole, type UserMode } from '#shared/workspace_roles'

/**
 * Loads a bot with the user's mode on it (write, read or guest). Bots of workspaces the
 * user is not in are "not found", so ids do not leak.
 */
export async function findBotFor(user: User, botId: string, need: 'read' | 'write' = 'read') {
  const bot = await Bot.find(botId)
  if (!bot) throw AppError.notFound('Bot not found')
  const role = await roleIn(user, bot.workspaceId)
  if (role === null) throw AppError.notFound('Bot not found')
  const mode: UserMode = userModeForRole(role)
  if (need === 'write' && mode !== 'write') {
    throw AppError.forbidden('You can only view this bot.')
  }
  return { bot, mode }
}
