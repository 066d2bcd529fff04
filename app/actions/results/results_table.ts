import type User from '#models/user'
import { findBotForResults } from '#actions/results/results_access'
import { resultColumnsOf, resultsGraphOf } from '#actions/results/result_columns'
import type { ResultsTablePreferences } from '#shared/bot/types'

function preferencesOf(raw: Record<string, unknown> | null): ResultsTablePreferences {
  const prefs = (raw ?? {}) as ResultsTablePreferences
  return {
    columnsOrder: Array.isArray(prefs.columnsOrder) ? prefs.columnsOrder : [],
    columnsVisibility:
      prefs.columnsVisibility && typeof prefs.columnsVisibility === 'object'
        ? prefs.columnsVisibility
        : {},
    columnsWidth:
      prefs.columnsWidth && typeof prefs.columnsWidth === 'object' ? prefs.columnsWidth : {},
  }
}

/** What the results table needs before its rows: columns, saved preferences, the mode. */
export class LoadResultsTable {
  async handle(user: User, botId: string) {
    const { bot, mode } = await findBotForResults(user, botId)
    return {
      columns: await resultColumnsOf(await resultsGraphOf(bot)),
      preferences: preferencesOf(bot.resultsTablePreferences),
      canWrite: mode === 'write',
    }
  }
}
