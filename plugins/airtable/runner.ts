import type { Runner, RunnerContext } from '#sdk/plugin'
import {
  answerBody,
  filledEntries,
  mapRowsToVariables,
  recordsApiAction,
  RecordsApiError,
} from '#sdk/data'
import plugin, { AIRTABLE_DEFAULT_BASE_URL } from './index.js'

type Action = keyof NonNullable<(typeof plugin)['actions']>

/** Airtable's page size; records read at most by one search. */
const PAGE_SIZE = 100
export const AIRTABLE_MAX_RECORDS = 1_000
const NO_ROWS = "Couldn't find any rows matching the filter"

interface Options {
  baseId?: string
  table?: string
  view?: string
  searchField?: string
  searchValue?: string
  filterByFormula?: string
  maxRecords?: number | string
  responseMapping?: { field?: string; variableId?: string }[]
  recordId?: string
  fields?: { key?: string; value?: string }[]
  typecast?: boolean
}

type Context = RunnerContext<Options, { apiKey?: string; baseUrl?: string }>

interface AirtableRecord {
  id: string
  createdTime?: string
  fields: Record<string, unknown>
}

/** An answer of Airtable that is not a success: its status and its error. */
export class AirtableError extends RecordsApiError {}

/**
 * A formula string literal: Airtable reads double-quoted text with backslash escapes, so a
 * value holding quotes or a closing parenthesis stays inside its string.
 */
export function formulaString(value: string) {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}

/** A field reference `{Name}`; names with braces are refused rather than escaped. */
export function formulaField(name: string) {
  if (!name || /[{}]/.test(name)) throw new Error(`Invalid field name "${name}"`)
  return `{${name}}`
}

/** The formula of a search: the builder's formula and the field equality, both kept. */
export function searchFormula(options: Options): string {
  const parts: string[] = []
  const formula = options.filterByFormula?.trim()
  if (formula) parts.push(formula)
  const field = options.searchField?.trim()
  if (field)
    parts.push(`${formulaField(field)} = ${formulaString(String(options.searchValue ?? ''))}`)
  return parts.length > 1 ? `AND(${parts.join(', ')})` : (parts[0] ?? '')
}

function tablePath({ options, credentials }: Context) {
  const baseId = options.baseId?.trim() ?? ''
  if (!/^app[A-Za-z0-9]+$/.test(baseId)) throw new Error(`Invalid base ID "${baseId}"`)
  const table = options.table?.trim() ?? ''
  if (!table) throw new Error('The table is empty')
  const root = (credentials.baseUrl?.trim() || AIRTABLE_DEFAULT_BASE_URL).replace(/\/+$/, '')
  return `${root}/v0/${baseId}/${encodeURIComponent(table)}`
}

function recordIdOf(options: Options) {
  const id = options.recordId?.trim() ?? ''
  if (!/^rec[A-Za-z0-9]+$/.test(id)) throw new Error(`Invalid record ID "${id}"`)
  return id
}

function fieldsOf(entries: Options['fields']) {
  return Object.fromEntries(filledEntries(entries))
}

async function call(context: Context, method: string, url: URL | string, body?: unknown) {
  const response = await context.http.request(url, {
    method,
    headers: {
      authorization: `Bearer ${String(context.credentials.apiKey ?? '').trim()}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: context.signal,
  })
  const data = await answerBody(response)
  if (!response.ok) {
    const error = data?.error
    const said = typeof error === 'string' ? error : (error?.message ?? error?.type ?? '')
    throw new AirtableError(`Airtable answered ${response.status}${said ? `: ${said}` : ''}`, {
      status: response.status,
      body: data,
    })
  }
  return data
}

const action = (failure: string, work: (context: Context) => Promise<unknown>) =>
  recordsApiAction(failure, work) as Runner<typeof plugin, any>

const plain = (record: AirtableRecord) => ({
  id: record.id,
  createdTime: record.createdTime,
  fields: record.fields,
})

const runners: Record<Action, Runner<typeof plugin, any>> = {
  'Search records': action('Search failed', async (context) => {
    const { options, variables, logger } = context
    const wanted = Number(options.maxRecords ?? 100)
    if (!Number.isInteger(wanted) || wanted < 1) {
      return void logger.error('"At most" must be a whole number from 1 to 1000')
    }
    const limit = Math.min(wanted, AIRTABLE_MAX_RECORDS)
    const formula = searchFormula(options)
    const records: AirtableRecord[] = []
    let offset: string | undefined
    do {
      const url = new URL(tablePath(context))
      url.searchParams.set('pageSize', String(Math.min(PAGE_SIZE, limit - records.length)))
      url.searchParams.set('maxRecords', String(limit))
      if (formula) url.searchParams.set('filterByFormula', formula)
      if (options.view?.trim()) url.searchParams.set('view', options.view.trim())
      if (offset) url.searchParams.set('offset', offset)
      const page = await call(context, 'GET', url)
      records.push(...((page?.records ?? []) as AirtableRecord[]))
      offset = typeof page?.offset === 'string' ? page.offset : undefined
    } while (offset && records.length < limit)
    const found = records.slice(0, limit).map(plain)
    if (found.length === 0) {
      logger.info(NO_ROWS)
      return { output: { records: [], count: 0 } }
    }
    mapRowsToVariables(
      found.map((record) => ({ id: record.id, ...record.fields })),
      options.responseMapping,
      variables,
      logger,
      'API response'
    )
    return { output: { records: found, count: found.length } }
  }),

  'Create record': action('Create failed', async (context) => {
    const fields = fieldsOf(context.options.fields)
    if (Object.keys(fields).length === 0) return
    const created = await call(context, 'POST', tablePath(context), {
      records: [{ fields }],
      typecast: context.options.typecast !== false,
    })
    context.logger.success('Record added successfully')
    return { output: plain(created.records[0]) }
  }),

  'Update record': action('Update failed', async (context) => {
    const id = recordIdOf(context.options)
    const fields = fieldsOf(context.options.fields)
    if (Object.keys(fields).length === 0) return
    // PATCH changes the fields sent and keeps the others.
    const updated = await call(context, 'PATCH', tablePath(context), {
      records: [{ id, fields }],
      typecast: context.options.typecast !== false,
    })
    context.logger.success('Record updated successfully')
    return { output: plain(updated.records[0]) }
  }),

  'Delete record': action('Delete failed', async (context) => {
    const id = recordIdOf(context.options)
    const url = new URL(tablePath(context))
    url.searchParams.append('records[]', id)
    const deleted = await call(context, 'DELETE', url)
    context.logger.success('Record deleted successfully')
    return { output: { id, deleted: Boolean(deleted?.records?.[0]?.deleted) } }
  }),
}

export default runners
