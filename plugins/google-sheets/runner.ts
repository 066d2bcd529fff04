import type { Runner, RunnerContext } from '#sdk/plugin'
import type { SurfaceRunner } from '#sdk/runner'
import { mapRowsToVariables, SQL_MAX_MAPPED_ROWS, truncatedRowsMessage } from '#sdk/data'
import type plugin from './index.js'
import {
  appendRows,
  clearSheet,
  insertEmptyRow,
  readSheet,
  resolveSheet,
  rowCells,
  spreadsheetIdOf,
  writeRow,
  type SheetData,
  type SheetRef,
} from './lib/sheets.js'

/**
 * The Sheets actions. Failures are logged with Google's message and the flow goes on (a
 * workflow node fails on them); a filter that finds nothing logs an info entry.
 */

const NO_ROWS = "Couldn't find any rows matching the filter"

interface Comparison {
  column?: string
  comparisonOperator?: string
  value?: string
}

type Options = Record<string, any>
type Context = RunnerContext<Options, Record<string, unknown>>

function messageOf(error: unknown) {
  return error instanceof Error ? error.message : String(error)
}

function cleanComparisons(filter: unknown): Comparison[] {
  return (Array.isArray(filter) ? filter : []).filter(
    (comparison: Comparison) => typeof comparison?.column === 'string' && comparison.column.trim()
  )
}

function compare(cell: string, operator: string | undefined, value: string) {
  const a = Number(cell)
  const b = Number(value)
  const numeric = cell.trim() !== '' && value.trim() !== '' && !Number.isNaN(a) && !Number.isNaN(b)
  switch (operator ?? 'Equal to') {
    case 'Equal to':
      return numeric ? a === b : cell === value
    case 'Not equal':
      return numeric ? a !== b : cell !== value
    case 'Contains':
      return cell.toLowerCase().includes(value.toLowerCase())
    case 'Starts with':
      return cell.toLowerCase().startsWith(value.toLowerCase())
    case 'Ends with':
      return cell.toLowerCase().endsWith(value.toLowerCase())
    case 'Greater than':
      return numeric ? a > b : cell.localeCompare(value) > 0
    case 'Less than':
      return numeric ? a < b : cell.localeCompare(value) < 0
    case 'Is set':
      return cell.trim() !== ''
    case 'Is empty':
      return cell.trim() === ''
    default:
      return false
  }
}

/** The rows the filter keeps (all of them without comparisons). */
export function filterRows(data: SheetData, filter: unknown, logicalOperator: unknown) {
  const comparisons = cleanComparisons(filter)
  if (comparisons.length === 0) return data.rows
  const holds = (row: SheetData['rows'][number], comparison: Comparison) =>
    compare(
      row.record[comparison.column!.trim()] ?? '',
      comparison.comparisonOperator,
      String(comparison.value ?? '')
    )
  return data.rows.filter((row) =>
    logicalOperator === 'OR'
      ? comparisons.some((comparison) => holds(row, comparison))
      : comparisons.every((comparison) => holds(row, comparison))
  )
}

function cellsOf(entries: unknown) {
  const cells: Record<string, string> = {}
  for (const entry of Array.isArray(entries) ? entries : []) {
    // Typebot's cells are {column, value}; the key/value field stores {key, value}.
    const column = String(entry?.key ?? entry?.column ?? '').trim()
    if (column && entry?.value !== undefined && entry.value !== '') {
      cells[column] = String(entry.value)
    }
  }
  return cells
}

function integer(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null
  const number = Number(value)
  return Number.isInteger(number) && number >= 0 ? number : null
}

async function sheetOf(context: Context): Promise<SheetRef> {
  const { options, credentials, http, signal } = context
  return resolveSheet(
    credentials,
    spreadsheetIdOf(options.spreadsheetId),
    { title: options.sheetName, sheetId: options.sheetId },
    { http, signal }
  )
}

/** Runs the action; a failure becomes the error log `{failure}` with Google's words. */
async function attempt<T>(context: Context, failure: string, work: () => Promise<T>) {
  try {
    return { ok: true as const, value: await work() }
  } catch (error) {
    context.logger.error(failure, messageOf(error))
    return { ok: false as const }
  }
}

function pick<T>(rows: T[], options: Options): T[] {
  switch (options.totalRowsToExtract ?? 'All') {
    case 'First':
      return rows.slice(0, 1)
    case 'Last':
      return rows.slice(-1)
    case 'Random':
      return rows.length ? [rows[Math.floor(Math.random() * rows.length)]] : []
    case 'Custom': {
      const index = integer(options.rowIndex)
      return index === null ? [] : rows.slice(index, index + 1)
    }
    case 'Range': {
      const start = integer(options.startIndex) ?? 0
      const limit = Math.max(1, integer(options.limit) ?? 1)
      return rows.slice(start, start + limit)
    }
    default:
      return rows
  }
}

const getData: Runner<typeof plugin, 'Get data from sheet'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, variables, logger, http, signal, credentials } = context
  const done = await attempt(context, 'Get data failed', async () => {
    const ref = await sheetOf(context)
    return readSheet(credentials, ref, { http, signal })
  })
  if (!done.ok) return
  const matching = filterRows(done.value, options.filter, options.logicalOperator)
  let picked = pick(matching, options).map((row) => row.record)
  if (picked.length === 0) {
    logger.info(NO_ROWS)
    return { output: { rows: [], rowCount: 0 } }
  }
  if (picked.length > SQL_MAX_MAPPED_ROWS) {
    picked = picked.slice(0, SQL_MAX_MAPPED_ROWS)
    logger.info(truncatedRowsMessage())
  }
  // Typebot's cellsToExtract ({column, variableId}) map like the response mapping.
  const mapping = [
    ...(Array.isArray(options.responseMapping) ? options.responseMapping : []),
    ...(Array.isArray(options.cellsToExtract)
      ? options.cellsToExtract.map((cell: any) => ({
          field: cell?.column,
          variableId: cell?.variableId,
        }))
      : []),
  ]
  mapRowsToVariables(picked, mapping, variables, logger, 'sheet')
  return { output: { rows: picked, rowCount: picked.length } }
}

const insertRow: Runner<typeof plugin, 'Insert a row'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger, http, signal, credentials } = context
  const cells = cellsOf(options.cellsToInsert)
  if (Object.keys(cells).length === 0) return
  const done = await attempt(context, 'Insert failed', async () => {
    const ref = await sheetOf(context)
    const data = await readSheet(credentials, ref, { http, signal })
    if (data.header.length === 0) throw new Error('The sheet has no header row naming its columns')
    const { row, unknown } = rowCells(data.header, cells)
    if (unknown.length === Object.keys(cells).length) {
      throw new Error(`The sheet has no column ${unknown.map((c) => `"${c}"`).join(', ')}`)
    }
    const index = integer(options.insertIndex)
    if (index === null || index >= data.rows.length) {
      await appendRows(credentials, ref, [row], { http, signal })
    } else {
      await insertEmptyRow(credentials, ref, index + 2, { http, signal })
      await writeRow(credentials, ref, index + 2, row, { http, signal })
    }
    return { record: Object.fromEntries(data.header.map((c, i) => [c, row[i]])), unknown }
  })
  if (!done.ok) return
  for (const column of done.value.unknown)
    logger.info(`Field ${column} does not exist in the sheet`)
  logger.success('Record added successfully')
  return { output: { record: done.value.record } }
}

const updateRow: Runner<typeof plugin, 'Update a row'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger, http, signal, credentials } = context
  const cells = cellsOf(options.cellsToUpsert)
  // Like the database blocks: no filter or nothing to write does nothing.
  if (Object.keys(cells).length === 0 || cleanComparisons(options.filter).length === 0) return
  const done = await attempt(context, 'Update failed', async () => {
    const ref = await sheetOf(context)
    const data = await readSheet(credentials, ref, { http, signal })
    const matching = filterRows(data, options.filter, options.logicalOperator)
    let unknown: string[] = []
    for (const match of matching) {
      const base = data.header.map((column) => match.record[column] ?? '')
      const next = rowCells(data.header, cells, base)
      unknown = next.unknown
      await writeRow(credentials, ref, match.rowNumber, next.row, { http, signal })
    }
    return { rowCount: matching.length, unknown }
  })
  if (!done.ok) return
  if (done.value.rowCount === 0) {
    logger.info(NO_ROWS)
  } else {
    for (const column of done.value.unknown)
      logger.info(`Field ${column} does not exist in the sheet`)
    logger.success('Record updated successfully')
  }
  return { output: { rowCount: done.value.rowCount } }
}

function recordsOf(value: unknown): Record<string, unknown>[] | null {
  let parsed = value
  if (typeof value === 'string') {
    if (!value.trim()) return null
    try {
      parsed = JSON.parse(value)
    } catch {
      return null
    }
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) parsed = [parsed]
  if (!Array.isArray(parsed)) return null
  return parsed.filter((item) => item && typeof item === 'object' && !Array.isArray(item))
}

const appendRowsRunner: SurfaceRunner<typeof plugin, 'Append rows'> = async (raw) => {
  const context = raw as unknown as Context & { workflow?: { input?: unknown } }
  const { options, logger, http, signal, credentials } = context
  const input = context.workflow?.input
  const records = String(options.rows ?? '').trim() ? recordsOf(options.rows) : recordsOf(input)
  if (!records) return void logger.error('Append failed', 'The rows are not a JSON list of records')
  if (records.length === 0) return void logger.info('No rows to append')
  const done = await attempt(context, 'Append failed', async () => {
    const ref = await sheetOf(context)
    const data = await readSheet(credentials, ref, { http, signal })
    if (data.header.length === 0) throw new Error('The sheet has no header row naming its columns')
    const rows = records.map(
      (record) =>
        rowCells(
          data.header,
          Object.fromEntries(
            Object.entries(record).map(([k, v]) => [
              k,
              v === null || v === undefined
                ? ''
                : typeof v === 'object'
                  ? JSON.stringify(v)
                  : String(v),
            ])
          )
        ).row
    )
    await appendRows(credentials, ref, rows, { http, signal })
    return rows.length
  })
  if (!done.ok) return
  logger.success(`${done.value} rows appended`)
  return { output: { rowCount: done.value } }
}

const clearRunner: Runner<typeof plugin, 'Clear sheet'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger, http, signal, credentials } = context
  const keepHeader = options.keepHeader !== false
  const done = await attempt(context, 'Clear failed', async () => {
    const ref = await sheetOf(context)
    await clearSheet(credentials, ref, keepHeader, { http, signal })
    return ref.title
  })
  if (!done.ok) return
  logger.success(`Sheet "${done.value}" cleared`)
  return { output: { sheet: done.value, keptHeader: keepHeader } }
}

export default {
  'Get data from sheet': getData,
  'Insert a row': insertRow,
  'Update a row': updateRow,
  'Append rows': appendRowsRunner,
  'Clear sheet': clearRunner,
}
