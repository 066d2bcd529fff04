import db from '@adonisjs/lucid/services/db'
import { claimRevision } from '#services/draft_revision'
import type Bot from '#models/bot'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import type { BotSnapshot } from '#shared/bot/types'
import Workspace from '#models/workspace'
import { restorable } from './restore_published_bot.js'
import { recordBotVersion } from './bot_history.js'

/**
 * Copies a version's content over the draft, keeping the draft's name and settings of
 * its own (public id, domain, folder). The published bot keeps serving until the next
 * publish. The restored content becomes a version of its own.
 */
export class RestoreBotVersion {
  async handle(user: User, bot: Bot, versionId: string) {
    const version = await BotVersion.query().where('id', versionId).where('bot_id', bot.id).first()
    if (!version) throw AppError.notFound('Version not found')
    // The draft keeps its own name: a restore brings back the content only.
    const stored: Partial<BotSnapshot> = { ...version.content }
    delete stored.name
    const workspace = await Workspace.find(bot.workspaceId)
    const content = await restorable(stored, { user, workspace })
    await db.transaction(async (trx) => {
      bot.useTransaction(trx)
      bot.merge(content as Partial<Bot>)
      bot.version = '6'
      await claimRevision('bots', bot, undefined, trx)
      await bot.save()
      await recordBotVersion(bot, user, { kind: 'restore', client: trx })
    })
    return bot
  }
}
