import type { HttpClient, Runner, RunnerContext } from '#sdk/plugin'
import {
  answerBody,
  filledEntries,
  mapRowsToVariables,
  recordsApiAction,
  RecordsApiError,
} from '#sdk/data'
import plugin, { NOCODB_DEFAULT_BASE_URL, NOCODB_OPERATORS } from './index.js'

type Action = keyof NonNullable<(typeof plugin)['actions']>

/** Records read at most (pages of 100), mapped into variables or updated at once. */
export const NOCODB_MAX_RECORDS = 1_000
const PAGE_SIZE = 100
const NO_ROWS = "Couldn't find any rows matching the filter"

interface Comparison {
  input?: string
  operator?: (typeof NOCODB_OPERATORS)[number]
  value?: string
}

interface Options {
  tableId?: string
  viewId?: string
  returnType?: 'All' | 'First' | 'Last' | 'Random'
  filter?: { comparisons?: Comparison[]; joiner?: 'AND' | 'OR' }
  responseMapping?: { field?: string; variableId?: string }[]
  fields?: { key?: string; value?: string }[]
  updates?: { key?: string; value?: string }[]
}

type Context = RunnerContext<Options, { baseUrl?: string; apiKey?: string }>
type NocoRecord = Record<string, unknown>

/** A NocoDB answer that is not a success: its status and what it said. */
export class NocoDbError extends RecordsApiError {}

function baseOf(credentials: Context['credentials']) {
  return (credentials.baseUrl?.trim() || NOCODB_DEFAULT_BASE_URL).replace(/\/+$/, '')
}

/** NocoDB's where syntax: `(field,op,value)` comparisons joined by `~and` / `~or`. */
const WHERE_OPERATORS: Record<(typeof NOCODB_OPERATORS)[number], (value: string) => string> = {
  'Equal to': (value) => `eq,${value}`,
  'Not equal': (value) => `neq,${value}`,
  'Contains': (value) => `like,%${value}%`,
  'Starts with': (value) => `like,${value}%`,
  'Ends with': (value) => `like,%${value}`,
  'Greater than': (value) => `gt,${value}`,
  'Less than': (value) => `lt,${value}`,
  'Is set': () => 'isnot,null',
  'Is empty': () => 'is,null',
}

/**
 * The `where` parameter of a filter; comparisons without a field are skipped. A field name
 * may not hold the syntax's own characters, and a value may not close its comparison and
 * open another (`)~or(`), so a variable cannot widen the filter.
 */
export function whereOf(filter: Options['filter']): string {
  const comparisons = (filter?.comparisons ?? []).filter((c) => c?.input?.trim())
  const parts = comparisons.map((comparison) => {
    const input = comparison.input!.trim()
    if (/[(),~]/.test(input)) {
      throw new Error(`Invalid field name "${input}": it may not contain ( ) , or ~`)
    }
    const value = String(comparison.value ?? '')
    if (/\)\s*~/.test(value))
      throw new Error(`Invalid filter value "${value}": ")~" is not allowed`)
    const operator =
      WHERE_OPERATORS[comparison.operator ?? 'Equal to'] ?? WHERE_OPERATORS['Equal to']
    return `(${input},${operator(value)})`
  })
  return parts.join(filter?.joiner === 'OR' ? '~or' : '~and')
}

function recordOf(entries: Options['fields']): NocoRecord {
  return Object.fromEntries(filledEntries(entries))
}

/** One call of the records API; a failure throws with the status and the body NocoDB sent. */
async function call(
  context: Context,
  method: 'GET' | 'POST' | 'PATCH',
  query: Record<string, string | number | undefined>,
  body?: unknown
) {
  const table = context.options.tableId?.trim() ?? ''
  if (!/^[A-Za-z0-9_-]+$/.test(table)) throw new Error(`Invalid table ID "${table}"`)
  const url = new URL(`${baseOf(context.credentials)}/api/v2/tables/${table}/records`)
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value))
  }
  const response = await (context.http as HttpClient).request(url, {
    method,
    headers: {
      'xc-token': String(context.credentials.apiKey ?? ''),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: context.signal,
  })
  const data = await answerBody(response)
  if (!response.ok) {
    const said =
      (data && typeof data === 'object' && (data.msg ?? data.message ?? data.error)) || ''
    throw new NocoDbError(`NocoDB answered ${response.status}${said ? `: ${said}` : ''}`, {
      status: response.status,
      body: data,
    })
  }
  return data
}

/** The records a filter matches, page by page, at most NOCODB_MAX_RECORDS. */
async function listRecords(context: Context, where: string, limit = NOCODB_MAX_RECORDS) {
  const records: NocoRecord[] = []
  let total = 0
  for (let offset = 0; records.length < limit; offset += PAGE_SIZE) {
    const page = await call(context, 'GET', {
      where,
      viewId: context.options.viewId?.trim(),
      limit: Math.min(PAGE_SIZE, limit - records.length),
      offset,
    })
    const list: NocoRecord[] = Array.isArray(page?.list) ? page.list : []
    records.push(...list)
    total = Number(page?.pageInfo?.totalRows ?? records.length)
    if (list.length === 0 || page?.pageInfo?.isLastPage !== false) break
  }
  return { records: records.slice(0, limit), total }
}

// A failure logs NocoDB's message and body: the builder sees what NocoDB refused.
const action = (failure: string, work: (context: Context) => Promise<unknown>) =>
  recordsApiAction(failure, work) as Runner<typeof plugin, any>

const runners: Record<Action, Runner<typeof plugin, any>> = {
  'Search records': action('Search failed', async (context) => {
    const { options, variables, logger } = context
    const where = whereOf(options.filter)
    const returnType = options.returnType ?? 'All'
    let { records, total } = await listRecords(
      context,
      where,
      returnType === 'First' ? 1 : undefined
    )
    if (records.length === 0) {
      logger.info(NO_ROWS)
      return { output: { records: [], totalRows: total } }
    }
    if (returnType === 'All' && total > records.length) {
      logger.info(`Only the first ${NOCODB_MAX_RECORDS.toLocaleString('en-US')} records were kept`)
    }
    if (returnType === 'Last') records = [records.at(-1)!]
    if (returnType === 'Random') records = [records[Math.floor(Math.random() * records.length)]]
    mapRowsToVariables(records, options.responseMapping, variables, logger, 'API response')
    return { output: { records, totalRows: total } }
  }),

  'Create record': action('Create failed', async (context) => {
    const record = recordOf(context.options.fields)
    if (Object.keys(record).length === 0) return
    const created = await call(context, 'POST', {}, record)
    context.logger.success('Record added successfully')
    return { output: { id: created?.Id ?? null, record } }
  }),

  'Update record': action('Update failed', async (context) => {
    const { options, logger } = context
    const updates = recordOf(options.updates)
    if (Object.keys(updates).length === 0)
      return void logger.error('At least one update is required')
    const where = whereOf(options.filter)
    if (!where) return void logger.error('At least one filter is required')
    // NocoDB patches records by id: the matching records are fetched first.
    const { records } = await listRecords(context, where)
    if (records.length === 0) {
      logger.info(NO_ROWS)
      return { output: { updated: 0 } }
    }
    const ids = records.map((record) => record.Id ?? record.id)
    if (ids.some((id) => id === undefined || id === null)) {
      throw new Error('The records have no Id field to update them by')
    }
    await call(
      context,
      'PATCH',
      {},
      ids.map((Id) => ({ Id, ...updates }))
    )
    logger.success('Record updated successfully')
    return { output: { updated: ids.length, ids } }
  }),
}

export default runners
