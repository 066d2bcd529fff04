import type User from '#models/user'
import Result from '#models/result'
import AppError from '#exceptions/app_error'
import { findBotForResults } from '#actions/results/results_access'
import { resultColumnsOf, resultsGraphOf } from '#actions/results/result_columns'

/** One result of a bot with its answers and logs (oldest first), for the log view. */
export class ShowResult {
  async handle(user: User, botId: string, resultId: string) {
    const { bot } = await findBotForResults(user, botId)
    const result = await Result.query()
      .where('bot_id', bot.id)
      .where('id', resultId)
      .preload('answers', (query) => query.orderBy('id', 'asc'))
      .preload('logs', (query) => query.orderBy('id', 'asc'))
      .first()
    if (!result) throw AppError.notFound('Result not found')
    const columns = await resultColumnsOf(await resultsGraphOf(bot))
    return { result, columns }
  }
}
