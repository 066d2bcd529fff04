import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import Result from '#models/result'
import { findBotForResults } from '#actions/results/results_access'
import { affectedRows } from '#actions/results/delete_results'
import { chunks, resultsOf, type ResultsTarget } from '#actions/results/results_query'

/**
 * Archives results: they leave the table and the analytics but stay in the database
 * (shown again with "show all").
 */
export class ArchiveResults {
  async handle(user: User, botId: string, target: ResultsTarget) {
    const { bot } = await findBotForResults(user, botId, 'write')
    const patch = {
      is_archived: true,
      updated_at: DateTime.now().toFormat(db.connection().dialect.dateTimeFormat),
    }
    if (target.all) {
      const query = resultsOf(bot.id, target).where('is_archived', false)
      return { archived: affectedRows(await query.update(patch)) }
    }
    let archived = 0
    for (const ids of chunks([...new Set(target.ids ?? [])], 500)) {
      archived += affectedRows(
        await Result.query()
          .where('bot_id', bot.id)
          .where('is_archived', false)
          .whereIn('id', ids)
          .update(patch)
      )
    }
    return { archived }
  }
}
