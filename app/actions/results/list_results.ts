import type User from '#models/user'
import type Result from '#models/result'
import Answer from '#models/answer'
import { findBotForResults } from '#actions/results/results_access'
import { resultsOf, type ResultsFilter } from '#actions/results/results_query'
import { resultColumnsOf, resultsGraphOf } from '#actions/results/result_columns'

export interface ListResultsInput extends ResultsFilter {
  limit?: number
  /** The id of the last result of the previous page. */
  cursor?: string | null
}

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200

/**
 * One page of a bot's results, newest first. Ids sort by creation time, so the cursor is
 * the last id seen: pages stay stable while new results arrive.
 */
export class ListResults {
  async handle(user: User, botId: string, input: ListResultsInput) {
    const { bot, mode } = await findBotForResults(user, botId)
    const limit = Math.min(Math.max(input.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE)
    const rows = await resultsOf(bot.id, input)
      .if(input.cursor, (query) => query.where('results.id', '<', input.cursor!))
      .orderBy('results.id', 'desc')
      .limit(limit + 1)
    const results: Result[] = rows.slice(0, limit)
    const nextCursor = rows.length > limit ? results[results.length - 1].id : null
    const answers = await answersOf(results.map((r) => r.id))
    const total = input.cursor ? undefined : await countResults(bot.id, input)
    const columns = await resultColumnsOf(await resultsGraphOf(bot))
    return { bot, mode, results, answers, nextCursor, total, columns }
  }
}

export async function countResults(botId: string, filter: ResultsFilter) {
  const [row] = await resultsOf(botId, filter).count('* as total')
  return Number(row.$extras.total ?? 0)
}

/** The answers of some results, grouped by result, in the order they were given. */
export async function answersOf(resultIds: string[]) {
  const byResult = new Map<string, Answer[]>()
  if (resultIds.length === 0) return byResult
  const answers = await Answer.query().whereIn('result_id', resultIds).orderBy('id', 'asc')
  for (const answer of answers) {
    const list = byResult.get(answer.resultId) ?? []
    list.push(answer)
    byResult.set(answer.resultId, list)
  }
  return byResult
}
