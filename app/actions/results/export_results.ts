import { Readable, pipeline } from 'node:stream'
import { stringify } from 'csv-stringify'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import Result from '#models/result'
import { findBotForResults } from '#actions/results/results_access'
import { countResults } from '#actions/results/list_results'
import { chunks, resultsOf, type ResultsTarget } from '#actions/results/results_query'
import {
  resultCells,
  resultColumnsOf,
  resultsGraphOf,
  type CellAnswer,
} from '#actions/results/result_columns'
import type { ResultColumnDto } from '#shared/results/types'
import { withSignedFileLinks } from '#services/storage'

export interface ExportResultsInput extends ResultsTarget {
  /** Column ids in the order to write them (the table's visible columns); all by default. */
  columns?: string[]
}

/** Results read per query: memory stays flat whatever the number of results. */
export const EXPORT_BATCH_SIZE = 500

function pickColumns(all: ResultColumnDto[], wanted?: string[]) {
  if (!wanted || wanted.length === 0) return all
  const byId = new Map(all.map((column) => [column.id, column]))
  const picked = wanted.map((id) => byId.get(id)).filter((c): c is ResultColumnDto => !!c)
  return picked.length > 0 ? picked : all
}

async function answersForCells(resultIds: string[]) {
  const byResult = new Map<string, CellAnswer[]>()
  if (resultIds.length === 0) return byResult
  const rows = await db
    .from('answers')
    .whereIn('result_id', resultIds)
    .orderBy('id', 'asc')
    .select('result_id', 'block_id', 'content', 'attached_file_urls')
  for (const row of rows) {
    const list = byResult.get(row.result_id) ?? []
    list.push({
      blockId: row.block_id,
      content: String(row.content ?? ''),
      attachedFileUrls: row.attached_file_urls ? JSON.parse(row.attached_file_urls) : null,
    })
    byResult.set(row.result_id, list)
  }
  return byResult
}

/**
 * Visitors' answers are untrusted: a cell starting with = + - @ (or a tab/CR) would run as
 * a formula when the file is opened in a spreadsheet, so it gets a leading apostrophe.
 */
export function spreadsheetSafe(value: unknown): string {
  const text = String(value ?? '')
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

async function* batchRows(batch: Result[], columns: ResultColumnDto[]) {
  const answers = await answersForCells(batch.map((result) => result.id))
  for (const result of batch) {
    const cells = resultCells(
      {
        createdAt: result.createdAt.toISO()!,
        variables: result.variables,
        language: result.language,
      },
      answers.get(result.id) ?? [],
      columns
    )
    // Private files get fresh signed links (docs/security.md, "Storage").
    yield columns.map((column) => spreadsheetSafe(withSignedFileLinks(cells[column.id] ?? '')))
  }
}

/** The CSV records, a batch of results at a time (newest first), header first. */
async function* csvRecords(botId: string, target: ExportResultsInput, columns: ResultColumnDto[]) {
  yield columns.map((column) => column.label)
  if (target.all) {
    let cursor: string | null = null
    for (;;) {
      const batch: Result[] = await resultsOf(botId, target)
        .if(cursor, (query) => query.where('results.id', '<', cursor!))
        .orderBy('results.id', 'desc')
        .limit(EXPORT_BATCH_SIZE)
      yield* batchRows(batch, columns)
      if (batch.length < EXPORT_BATCH_SIZE) return
      cursor = batch[batch.length - 1].id
    }
  }
  const ids = [...new Set(target.ids ?? [])].sort().reverse()
  for (const chunk of chunks(ids, EXPORT_BATCH_SIZE)) {
    const batch = await Result.query()
      .where('bot_id', botId)
      .whereIn('id', chunk)
      .orderBy('id', 'desc')
    yield* batchRows(batch, columns)
  }
}

function fileNameOf(botName: string) {
  const base = botName.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'bot'
  return `${base}-results-${new Date().toISOString().slice(0, 10)}.csv`
}

/**
 * A CSV of results as a stream: the selected ids, or every result matching the filter.
 * Rows are read in batches while the client downloads, so 50 000 results never sit in
 * memory at once.
 */
export class ExportResults {
  async handle(user: User, botId: string, input: ExportResultsInput) {
    const { bot } = await findBotForResults(user, botId)
    const columns = pickColumns(await resultColumnsOf(await resultsGraphOf(bot)), input.columns)
    const total = input.all ? await countResults(bot.id, input) : new Set(input.ids ?? []).size
    const csv = stringify()
    pipeline(Readable.from(csvRecords(bot.id, input, columns)), csv, (error) => {
      if (error) csv.destroy(error)
    })
    return { csv, total, fileName: fileNameOf(bot.name) }
  }
}
