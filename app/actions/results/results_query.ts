import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Result from '#models/result'

/**
 * Which results of a bot a screen or an action looks at. By default the results a builder
 * cares about: visitors who answered at least once (hasStarted), not archived. `includeAll`
 * adds views without answers and archived results.
 */
export interface ResultsFilter {
  search?: string | null
  includeAll?: boolean
  /** Created at or after / before these times (the Typebot-compatible API's timeFilter). */
  createdFrom?: DateTime
  createdBefore?: DateTime
}

/** Which results an action applies to: listed ids, or all of those matching the filter. */
export interface ResultsTarget extends ResultsFilter {
  ids?: string[]
  all?: boolean
}

/** LIKE pattern with `!` as escape character (the same on SQLite, PostgreSQL and MySQL). */
export function containsPattern(text: string) {
  return `%${text.toLowerCase().replace(/[!%_]/g, (char) => `!${char}`)}%`
}

/**
 * SQL true when one of the result's variables (a JSON list of {id, name, value} kept as
 * text) has a value LIKE the bound pattern: names and ids do not match.
 */
function variableValueLike() {
  const dialect = db.connection().dialect.name
  if (dialect === 'postgres') {
    return `exists (select 1 from jsonb_array_elements(results.variables::jsonb) as variable where lower(variable->>'value') like ? escape '!')`
  }
  if (dialect === 'mysql') {
    return `json_search(lower(results.variables), 'one', ?, '!', '$[*].value') is not null`
  }
  return `exists (select 1 from json_each(results.variables) as variable where lower(json_extract(variable.value, '$.value')) like ? escape '!')`
}

/** A time as Lucid writes timestamps (local zone, the dialect's format; SQLite keeps text). */
function asStored(time: DateTime) {
  return time.toLocal().toFormat(db.connection().dialect.dateTimeFormat)
}

type ResultQuery = ModelQueryBuilderContract<typeof Result, Result>

/** Narrows a results query to the filter: started and not archived unless includeAll, search. */
export function applyResultsFilter<Q extends ResultQuery>(query: Q, filter: ResultsFilter): Q {
  if (!filter.includeAll) query.where('has_started', true).where('is_archived', false)
  if (filter.createdFrom) query.where('results.created_at', '>=', asStored(filter.createdFrom))
  if (filter.createdBefore) query.where('results.created_at', '<', asStored(filter.createdBefore))
  const search = filter.search?.trim()
  if (search) {
    const pattern = containsPattern(search)
    // Answers' contents, then the variables' values.
    query.where((sub) => {
      sub
        .whereExists((answers) => {
          answers
            .from('answers')
            .whereColumn('answers.result_id', 'results.id')
            .whereRaw(`lower(answers.content) like ? escape '!'`, [pattern])
        })
        .orWhereRaw(variableValueLike(), [pattern])
    })
  }
  return query
}

/** The results of a bot matching the filter. */
export function resultsOf(botId: string, filter: ResultsFilter = {}) {
  return applyResultsFilter(Result.query().where('results.bot_id', botId), filter)
}

/** Splits a list in chunks (ids sent to whereIn stay under the drivers' parameter limits). */
export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = []
  for (let index = 0; index < list.length; index += size) out.push(list.slice(index, index + size))
  return out
}
