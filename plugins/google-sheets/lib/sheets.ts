import { callGoogle, googleUrl, type GoogleIo, type GoogleRequest } from '#sdk/google'
import { SHEETS_DEFAULT_BASE_URL } from '../index.js'

/**
 * The Sheets API v4 calls of the plugin (server only): the sheet's tabs, its values as
 * records keyed by the header row, and the writes. A sheet's first row is its header.
 */

export interface SheetRef {
  spreadsheetId: string
  title: string
  sheetId: number
}

export interface SheetData {
  header: string[]
  /** The data rows (the header excluded), as records; `rowNumber` is the 1-based A1 row. */
  rows: { rowNumber: number; record: Record<string, string> }[]
}

type Credentials = Record<string, unknown>

function base(credentials: Credentials) {
  return String(credentials.baseUrl ?? '').trim() || SHEETS_DEFAULT_BASE_URL
}

function call<T>(credentials: Credentials, path: string, request: GoogleRequest, io: GoogleIo) {
  return callGoogle<T>(
    credentials,
    'Google Sheets',
    googleUrl(base(credentials), path, request.query),
    request,
    io
  )
}

/** The ID out of a spreadsheet's link, or the text as it is. */
export function spreadsheetIdOf(value: unknown) {
  const text = String(value ?? '').trim()
  return text.match(/\/spreadsheets\/d\/([A-Za-z0-9_-]+)/)?.[1] ?? text
}

/** A tab's title as an A1 range: quoted, quotes doubled. */
export function a1(title: string, cells = '') {
  return `'${title.replace(/'/g, "''")}'${cells ? `!${cells}` : ''}`
}

const values = (ref: SheetRef, range: string, verb = '') =>
  `/v4/spreadsheets/${encodeURIComponent(ref.spreadsheetId)}/values/${encodeURIComponent(range)}${verb}`

/** The tab named (or with the stored gid, or the first one), with a clear error when absent. */
export async function resolveSheet(
  credentials: Credentials,
  spreadsheetId: string,
  wanted: { title?: string; sheetId?: unknown },
  io: GoogleIo
): Promise<SheetRef> {
  if (!spreadsheetId) throw new Error('The spreadsheet is missing')
  const meta = await call<{ sheets?: { properties: { sheetId: number; title: string } }[] }>(
    credentials,
    `/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}`,
    { query: { fields: 'sheets.properties' } },
    io
  )
  const tabs = (meta?.sheets ?? []).map((sheet) => sheet.properties)
  const title = wanted.title?.trim()
  const gid = wanted.sheetId !== undefined && wanted.sheetId !== '' ? Number(wanted.sheetId) : null
  const tab = title
    ? tabs.find((candidate) => candidate.title === title)
    : gid !== null
      ? tabs.find((candidate) => candidate.sheetId === gid)
      : tabs[0]
  if (!tab) {
    throw new Error(
      title ? `The spreadsheet has no sheet named "${title}"` : 'The spreadsheet has no such sheet'
    )
  }
  return { spreadsheetId, title: tab.title, sheetId: tab.sheetId }
}

export async function readSheet(
  credentials: Credentials,
  ref: SheetRef,
  io: GoogleIo
): Promise<SheetData> {
  const answer = await call<{ values?: unknown[][] }>(
    credentials,
    values(ref, a1(ref.title)),
    { query: { valueRenderOption: 'FORMATTED_VALUE' } },
    io
  )
  const grid = (answer?.values ?? []).map((row) => row.map((cell) => String(cell ?? '')))
  const header = (grid[0] ?? []).map((cell) => cell.trim())
  const rows = grid.slice(1).map((cells, index) => ({
    rowNumber: index + 2,
    record: Object.fromEntries(
      header.map((column, columnIndex) => [column, cells[columnIndex] ?? ''] as const)
    ),
  }))
  return { header, rows }
}

/** A row's cells in the header's order; unknown columns are returned apart. */
export function rowCells(header: string[], cells: Record<string, string>, current: string[] = []) {
  const row = header.map((_, index) => current[index] ?? '')
  const unknown: string[] = []
  for (const [column, value] of Object.entries(cells)) {
    const index = header.indexOf(column.trim())
    if (index === -1) unknown.push(column)
    else row[index] = value
  }
  return { row, unknown }
}

export async function appendRows(
  credentials: Credentials,
  ref: SheetRef,
  rows: string[][],
  io: GoogleIo
) {
  return call<{ updates?: { updatedRange?: string; updatedRows?: number } }>(
    credentials,
    values(ref, a1(ref.title, 'A1'), ':append'),
    {
      method: 'POST',
      query: { valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' },
      body: { majorDimension: 'ROWS', values: rows },
    },
    io
  )
}

/** Writes one row at a 1-based row number. */
export async function writeRow(
  credentials: Credentials,
  ref: SheetRef,
  rowNumber: number,
  row: string[],
  io: GoogleIo
) {
  return call(
    credentials,
    values(ref, a1(ref.title, `A${rowNumber}`)),
    {
      method: 'PUT',
      query: { valueInputOption: 'USER_ENTERED' },
      body: { majorDimension: 'ROWS', values: [row] },
    },
    io
  )
}

/** Opens an empty row at a 1-based row number (the rows below move down). */
export async function insertEmptyRow(
  credentials: Credentials,
  ref: SheetRef,
  rowNumber: number,
  io: GoogleIo
) {
  return call(
    credentials,
    `/v4/spreadsheets/${encodeURIComponent(ref.spreadsheetId)}:batchUpdate`,
    {
      method: 'POST',
      body: {
        requests: [
          {
            insertDimension: {
              range: {
                sheetId: ref.sheetId,
                dimension: 'ROWS',
                startIndex: rowNumber - 1,
                endIndex: rowNumber,
              },
              inheritFromBefore: rowNumber > 2,
            },
          },
        ],
      },
    },
    io
  )
}

export async function clearSheet(
  credentials: Credentials,
  ref: SheetRef,
  keepHeader: boolean,
  io: GoogleIo
) {
  return call(
    credentials,
    values(ref, keepHeader ? a1(ref.title, 'A2:ZZZ') : a1(ref.title), ':clear'),
    { method: 'POST', body: {} },
    io
  )
}
