import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import { ListResults } from '#actions/results/list_results'
import { ShowResult } from '#actions/results/show_result'
import { DeleteResults } from '#actions/results/delete_results'
import { findBotForResults } from '#actions/results/results_access'
import { resultsStatsOf } from '#actions/results/results_analytics'
import {
  typebotDeleteResultsValidator,
  typebotResultsQueryValidator,
} from '#validators/typebot_api'
import { successReply, toTypebotLogDto, toTypebotResultDto } from '#dtos/typebot_api_dto'

type TimeFilter =
  'today' | 'last7Days' | 'last30Days' | 'monthToDate' | 'lastMonth' | 'yearToDate' | 'allTime'

/**
 * The period a timeFilter names, in the caller's time zone (UTC when absent or unknown).
 * Without a filter, the last 7 days: what that API's clients get by default.
 */
export function periodOf(filter: TimeFilter = 'last7Days', timeZone?: string) {
  let now = DateTime.now().setZone(timeZone || 'UTC')
  if (!now.isValid) now = DateTime.now().setZone('UTC')
  switch (filter) {
    case 'today':
      return { createdFrom: now.startOf('day') }
    case 'last7Days':
      return { createdFrom: now.minus({ days: 7 }) }
    case 'last30Days':
      return { createdFrom: now.minus({ days: 30 }) }
    case 'monthToDate':
      return { createdFrom: now.startOf('month') }
    case 'lastMonth':
      return {
        createdFrom: now.minus({ months: 1 }).startOf('month'),
        createdBefore: now.startOf('month'),
      }
    case 'yearToDate':
      return { createdFrom: now.startOf('year') }
    case 'allTime':
      return {}
  }
}

/** /api/v1/typebots/:typebotId/results... and analytics: Typebot's paths, our actions. */
export default class TypebotResultsController {
  /** GET results?limit=&cursor=&timeFilter=: newest first; nextCursor is opaque. */
  async index({ auth, params, request }: HttpContext) {
    const query = await typebotResultsQueryValidator.validate(request.qs())
    const period = periodOf(query.timeFilter, query.timeZone)
    const page = await new ListResults().handle(auth.user!, params.typebotId, {
      limit: query.limit,
      cursor: query.cursor,
      ...period,
    })
    return {
      results: page.results.map((r) => toTypebotResultDto(r, page.answers.get(r.id) ?? [])),
      nextCursor: page.nextCursor,
    }
  }

  async show({ auth, params }: HttpContext) {
    const { result } = await new ShowResult().handle(auth.user!, params.typebotId, params.resultId)
    return { result: toTypebotResultDto(result, result.answers) }
  }

  async logs({ auth, params }: HttpContext) {
    const { result } = await new ShowResult().handle(auth.user!, params.typebotId, params.resultId)
    return { logs: result.logs.map(toTypebotLogDto) }
  }

  /** DELETE results?resultIds=a,b: those results, or every result of the bot without ids. */
  async destroy({ auth, params, request }: HttpContext) {
    const { resultIds } = await typebotDeleteResultsValidator.validate(request.qs())
    const ids = (resultIds ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean)
    await new DeleteResults().handle(
      auth.user!,
      params.typebotId,
      ids.length > 0 ? { ids } : { all: true, includeAll: true }
    )
    return successReply()
  }

  /** GET analytics/stats: views, starts and completions (not archived). */
  async stats({ auth, params }: HttpContext) {
    const { bot } = await findBotForResults(auth.user!, params.typebotId)
    const { stats } = await resultsStatsOf(bot.id)
    return { stats }
  }
}
