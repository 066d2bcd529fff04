import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Bot from '#models/bot'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import type { BotSnapshot } from '#shared/bot/types'
import type { VersionKind } from '#shared/history/types'

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

export function versionsQuery(botId: string, client?: TransactionClientContract) {
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
