import type { ResultsTablePreferences } from '#shared/bot/types'
import type {
  ResultDetailDto,
  ResultsAnalyticsDto,
  ResultsPageDto,
  ResultsSelection,
  ResultsTableDto,
} from '#shared/results/types'
import { jsonFetch } from '~/lib/http'

/** The results tab's JSON calls (start/routes/results.ts). */

const base = (botId: string) => `/api/bots/${encodeURIComponent(botId)}/results`

export interface PageQuery {
  cursor?: string | null
  search?: string
  includeAll?: boolean
  limit?: number
}

export function fetchResultsTable(botId: string, signal?: AbortSignal) {
  return jsonFetch<ResultsTableDto>(`${base(botId)}/table`, { signal })
}

export function fetchResultsPage(botId: string, query: PageQuery, signal?: AbortSignal) {
  const params = new URLSearchParams()
  if (query.cursor) params.set('cursor', query.cursor)
  if (query.search?.trim()) params.set('search', query.search.trim())
  if (query.includeAll) params.set('includeAll', 'true')
  if (query.limit) params.set('limit', String(query.limit))
  const qs = params.toString()
  return jsonFetch<ResultsPageDto>(qs ? `${base(botId)}?${qs}` : base(botId), { signal })
}

export function deleteResults(botId: string, selection: ResultsSelection) {
  return jsonFetch<{ deleted: number }>(base(botId), { method: 'DELETE', body: selection })
}

export function archiveResults(botId: string, selection: ResultsSelection) {
  return jsonFetch<{ archived: number }>(`${base(botId)}/archive`, {
    method: 'POST',
    body: selection,
  })
}

export function fetchResultDetail(botId: string, resultId: string, signal?: AbortSignal) {
  return jsonFetch<ResultDetailDto>(`${base(botId)}/${encodeURIComponent(resultId)}/logs`, {
    signal,
  })
}

export function fetchResultsAnalytics(botId: string, signal?: AbortSignal) {
  return jsonFetch<ResultsAnalyticsDto>(`${base(botId)}/analytics`, { signal })
}

/** Column order, visibility and widths are saved on the bot (write mode only). */
export function saveTablePreferences(botId: string, preferences: ResultsTablePreferences) {
  return jsonFetch(`/api/v1/bots/${encodeURIComponent(botId)}`, {
    method: 'PATCH',
    body: { resultsTablePreferences: preferences },
  })
}

export const exportUrl = (botId: string) => `${base(botId)}/export`
