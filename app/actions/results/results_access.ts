import Bot from '#models/bot'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { roleIn } from '#services/workspace_access'
import { memberModeOnBot } from '#policies/bot_policy'

/**
 * Results are for members of the bot's workspace only (collaborators invited to one bot
 * do not see visitors' answers): any member reads and exports, write mode deletes and
 * archives; a folder shared with chosen members hides them from the others and view access
 * reads only (docs/folder_sharing.md). Anyone else gets "not found", so ids do not leak.
 */
export async function findBotForResults(
  user: User,
  botId: string,
  need: 'read' | 'write' = 'read'
) {
  const bot = await Bot.find(botId)
  if (!bot) throw AppError.notFound('Bot not found')
  const role = await roleIn(user, bot.workspaceId)
  const mode = role === null ? null : await memberModeOnBot(user, bot, role)
  if (mode === null) throw AppError.notFound('Bot not found')
  if (need === 'write' && mode !== 'write') {
    throw AppError.forbidden('You can only view this bot.')
  }
  return { bot, mode }
}
