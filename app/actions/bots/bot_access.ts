import Bot from '#models/bot'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { bouncerFor, refusal } from '#policies/bouncer_for'
import BotPolicy, { modeOn } from '#policies/bot_policy'

const ABILITY = { read: 'view', write: 'edit', manage: 'manage' } as const

/**
 * Loads a bot with the user's mode on it (write, read or guest), as BotPolicy allows: bots
 * the user has no access to are "not found", so ids do not leak. `manage` is for deleting
 * and duplicating.
 */
export async function findBotFor(
  user: User,
  botId: string,
  need: 'read' | 'write' | 'manage' = 'read'
) {
  const bot = await Bot.find(botId)
  if (!bot) throw AppError.notFound('Bot not found')
  const answer = await bouncerFor(user).with(BotPolicy).execute(ABILITY[need], bot)
  if (!answer.authorized) throw refusal(answer)
  return { bot, mode: (await modeOn(user, bot))! }
}
