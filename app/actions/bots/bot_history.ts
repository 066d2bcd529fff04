import db from '@adonisjs/lucid/services/db'
import { claimRevision } from '#services/draft_revision'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Bot from '#models/bot'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import type { BotSnapshot } from '#shared/bot/types'
import type { VersionKind } from '#shared/history/types'
import Workspace from '#models/workspace'
import { restorable } from './bots.js'

/**
 * A bot's history, with the rules of the workflows' (docs/workflows.md "History"): the
 * builder's autosaves update their open draft version, while publishes, restores and named
 * saves each add a version that stays as it was.
 */

export function botSnapshotOf(bot: Bot): BotSnapshot {
  return {
    name: bot.name,
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
  } as BotSnapshot
}

function versionsQuery(botId: string, client?: TransactionClientContract) {
  return BotVersion.query(client ? { client } : {})
    .where('bot_id', botId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
}

function versionName(position: number) {
  return position <= 1 ? 'Initial Version' : `Version ${position}`
}

export async function recordBotVersion(
  bot: Bot,
  user: User | null,
  options: { kind?: VersionKind; name?: string; client?: TransactionClientContract } = {}
) {
  const kind = options.kind ?? 'draft'
  const run = async (trx: TransactionClientContract) => {
    const versions = await versionsQuery(bot.id, trx)
    const latest = versions[0]
    if (kind === 'draft' && latest?.kind === 'draft') {
      latest.useTransaction(trx)
      latest.merge({ content: botSnapshotOf(bot), userId: user?.id ?? latest.userId })
      await latest.save()
      return latest
    }
    return BotVersion.create(
      {
        botId: bot.id,
        versionName: options.name?.trim() || versionName(versions.length + 1),
        kind,
        content: botSnapshotOf(bot),
        userId: user?.id ?? null,
      },
      { client: trx }
    )
  }
  return options.client ? run(options.client) : db.transaction(run)
}

export class ListBotVersions {
  handle(bot: Bot) {
    return versionsQuery(bot.id).preload('user')
  }
}

export class SaveNamedBotVersion {
  handle(user: User, bot: Bot, name: string) {
    return recordBotVersion(bot, user, { kind: 'named', name })
  }
}

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
