import type User from '#models/user'
import Result from '#models/result'
import { findBotForResults } from '#actions/results/results_access'
import { chunks, resultsOf, type ResultsTarget } from '#actions/results/results_query'

/** Counts the rows a delete or update touched, whatever the driver answers. */
export function affectedRows(outcome: unknown): number {
  if (Array.isArray(outcome)) return outcome.reduce((sum, n) => sum + Number(n || 0), 0)
  return Number(outcome ?? 0)
}

/** Deletes results (answers and logs go with them): the listed ids, or all matching a filter. */
export class DeleteResults {
  async handle(user: User, botId: string, target: ResultsTarget) {
    const { bot } = await findBotForResults(user, botId, 'write')
    if (target.all) return { deleted: affectedRows(await resultsOf(bot.id, target).delete()) }
    let deleted = 0
    for (const ids of chunks([...new Set(target.ids ?? [])], 500)) {
      deleted += affectedRows(
        await Result.query().where('bot_id', bot.id).whereIn('id', ids).delete()
      )
    }
    return { deleted }
  }
}
