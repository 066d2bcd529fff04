import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { claimRevision } from '#services/draft_revision'
import db from '@adonisjs/lucid/services/db'
import { type BotSettings, type BotV6 } from '#shared/bot/types'
import { botFieldProblems } from '#shared/bot/settings_bounds'
import { recordBotVersion } from './bot_history.js'
import { contentOf, withBranding, canRemoveBranding } from './bots.js'

/**
 * What a restore (of the published copy or of a history version) may put back over the
 * draft: a copy saved before the server checked bounds and formats goes no further, and the
 * badge stays on for plans without brandingRemoval.
 */
export async function restorable<T extends { settings?: unknown; theme?: unknown }>(
  content: T,
  actor?: { user: User; workspace: Workspace | null }
): Promise<T> {
  const outOfBounds = botFieldProblems(content)[0]
  if (outOfBounds) {
    throw new AppError('Cannot restore', {
      status: 422,
      code: 'E_INVALID_BOT',
      description: `${outOfBounds.path}: ${outOfBounds.message}`,
      field: outOfBounds.path,
    })
  }
  if (actor && content.settings && !(await canRemoveBranding(actor))) {
    return { ...content, settings: withBranding(content.settings as BotSettings) }
  }
  return content
}

/** Restores the published content over the draft (engine 6 only), keeping the draft's metadata. */
export class RestorePublishedBot {
  async handle(bot: Bot, actor?: { user: User; workspace: Workspace }) {
    const published = await PublishedBot.findBy('bot_id', bot.id)
    if (!published) throw AppError.notFound('Published version not found')
    if (published.version !== '6') {
      throw new AppError('Cannot restore', {
        status: 400,
        description: 'Only bots of engine version 6 can be restored.',
      })
    }
    const content = await restorable(contentOf(published as unknown as BotV6), actor)
    await db.transaction(async (trx) => {
      bot.useTransaction(trx)
      bot.merge(content)
      await claimRevision('bots', bot, undefined, trx)
      await bot.save()
    })
    await recordBotVersion(bot, actor?.user ?? null, { kind: 'restore' })
    return bot
  }
}
