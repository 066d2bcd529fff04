import type { ServerResponse } from 'node:http'
import { sendJson, startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for Airtable's REST API (v0): a Bearer personal access token; bases
 * holding tables (by name or `tbl…` id) whose fields have a type; list with `pageSize`
 * (at most 100), `maxRecords`, an opaque `offset`, `view` and `filterByFormula` (a real
 * little formula evaluator: strings with backslash escapes, numbers, `{Field}`, = != > < >=
 * <=, &, AND, OR, NOT, FIND, LOWER, BLANK); create and update (`typecast`), delete by
 * `records[]`, and `GET /v0/meta/whoami`. Errors are Airtable's `{ error: { type, message } }`.
 */

type FieldType = 'text' | 'number'

export interface AirtableRecordRow {
  id: string
  createdTime: string
  fields: Record<string, unknown>
}

export interface AirtableTable {
  id: string
  name: string
  fields: Record<string, FieldType>
  records: AirtableRecordRow[]
  views?: Record<string, (record: AirtableRecordRow) => boolean>
}

class FormulaError extends Error {}

type Token = { kind: 'string' | 'number' | 'field' | 'name' | 'op' | 'punct'; value: string }

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (/\s/.test(c)) {
      i++
    } else if (c === '"' || c === "'") {
      let value = ''
      i++
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\') {
          i++
          value += text[i] === 'n' ? '\n' : text[i]
        } else value += text[i]
        i++
      }
      if (text[i] !== c) throw new FormulaError('unterminated string')
      i++
      tokens.push({ kind: 'string', value })
    } else if (c === '{') {
      const end = text.indexOf('}', i)
      if (end < 0) throw new FormulaError('unterminated field')
      tokens.push({ kind: 'field', value: text.slice(i + 1, end) })
      i = end + 1
    } else if (/[0-9.]/.test(c)) {
      const match = /^[0-9]*\.?[0-9]+/.exec(text.slice(i))!
      tokens.push({ kind: 'number', value: match[0] })
      i += match[0].length
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!
      tokens.push({ kind: 'name', value: match[0].toUpperCase() })
      i += match[0].length
    } else if (['!=', '>=', '<='].includes(text.slice(i, i + 2))) {
      tokens.push({ kind: 'op', value: text.slice(i, i + 2) })
      i += 2
    } else if ('=<>&'.includes(c)) {
      tokens.push({ kind: 'op', value: c })
      i++
    } else if ('(),'.includes(c)) {
      tokens.push({ kind: 'punct', value: c })
      i++
    } else {
      throw new FormulaError(`unexpected "${c}"`)
    }
  }
  return tokens
}

/** Compiles a formula to a function of a record's fields. */
export function compileFormula(text: string, known: Record<string, FieldType>) {
  const tokens = tokenize(text)
  let at = 0
  const peek = () => tokens[at]
  const expect = (value: string) => {
    if (peek()?.value !== value) throw new FormulaError(`expected "${value}"`)
    at++
  }
  type Node = (fields: Record<string, unknown>) => unknown
  const truthy = (value: unknown) =>
    value !== '' && value !== 0 && value !== null && value !== undefined && value !== false

  function primary(): Node {
    const token = tokens[at++]
    if (!token) throw new FormulaError('unexpected end')
    if (token.kind === 'string') return () => token.value
    if (token.kind === 'number') return () => Number(token.value)
    if (token.kind === 'field') {
      if (!(token.value in known))
        throw new FormulaError(`Unknown field names: ${token.value.toLowerCase()}`)
      return (fields) => fields[token.value] ?? (known[token.value] === 'number' ? null : '')
    }
    if (token.kind === 'punct' && token.value === '(') {
      const inner = expression()
      expect(')')
      return inner
    }
    if (token.kind === 'name') {
      expect('(')
      const args: Node[] = []
      if (peek()?.value !== ')') {
        args.push(expression())
        while (peek()?.value === ',') {
          at++
          args.push(expression())
        }
      }
      expect(')')
      switch (token.value) {
        case 'AND':
          return (f) => args.every((arg) => truthy(arg(f)))
        case 'OR':
          return (f) => args.some((arg) => truthy(arg(f)))
        case 'NOT':
          return (f) => !truthy(args[0](f))
        case 'FIND':
          return (f) => String(args[1](f) ?? '').indexOf(String(args[0](f))) + 1
        case 'LOWER':
          return (f) => String(args[0](f) ?? '').toLowerCase()
        case 'BLANK':
          return () => ''
        case 'TRUE':
          return () => true
        case 'FALSE':
          return () => false
        default:
          throw new FormulaError(`unknown function ${token.value}`)
      }
    }
    throw new FormulaError(`unexpected "${token.value}"`)
  }

  function concatenation(): Node {
    let left = primary()
    while (peek()?.value === '&') {
      at++
      const first = left
      const right = primary()
      left = (f) => `${first(f) ?? ''}${right(f) ?? ''}`
    }
    return left
  }

  function expression(): Node {
    const left = concatenation()
    const op = peek()
    if (op?.kind !== 'op') return left
    at++
    const right = concatenation()
    return (f) => {
      const a = left(f)
      const b = right(f)
      const numeric = typeof a === 'number' || typeof b === 'number'
      const x = numeric ? Number(a) : String(a ?? '')
      const y = numeric ? Number(b) : String(b ?? '')
      switch (op.value) {
        case '=':
          return x === y
        case '!=':
          return x !== y
        case '>':
          return x > y
        case '<':
          return x < y
        case '>=':
          return x >= y
        default:
          return x <= y
      }
    }
  }

  const root = expression()
  if (at !== tokens.length) throw new FormulaError(`unexpected "${tokens[at].value}"`)
  return (fields: Record<string, unknown>) => truthy(root(fields))
}

function fail(res: ServerResponse, status: number, type: string, message: string) {
  sendJson(res, status, { error: { type, message } })
}

export async function startAirtableStandIn(options: {
  token: string
  bases: Record<string, AirtableTable[]>
}) {
  const { token, bases } = options
  let counter = 0
  const newRecordId = () => `rec${String(++counter).padStart(14, 'A')}`
  const offsets = new Map<string, AirtableRecordRow[]>()

  const service = await startStandIn<StandInRequest & { query: Record<string, string[]> }>(
    ({ req, res, url, body }) => {
      if (req.headers.authorization !== `Bearer ${token}`) {
        return fail(res, 401, 'AUTHENTICATION_REQUIRED', 'Authentication required')
      }
      if (url.pathname === '/v0/meta/whoami') return sendJson(res, 200, { id: 'usrStandIn' })
      const match = /^\/v0\/([^/]+)\/([^/]+)$/.exec(url.pathname)
      if (!match) return sendJson(res, 404, { error: 'NOT_FOUND' })
      const tables = bases[match[1]]
      const name = decodeURIComponent(match[2])
      const table = tables?.find((t) => t.id === name || t.name === name)
      if (!table) {
        return fail(
          res,
          404,
          'TABLE_NOT_FOUND',
          `Could not find table ${name} in application ${match[1]}`
        )
      }

      const typed = (fields: Record<string, unknown>, typecast: boolean) => {
        const out: Record<string, unknown> = {}
        for (const [field, value] of Object.entries(fields ?? {})) {
          const type = table.fields[field]
          if (!type) throw [422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${field}"`]
          if (type === 'number' && typeof value !== 'number') {
            if (!typecast || !Number.isFinite(Number(value))) {
              throw [
                422,
                'INVALID_VALUE_FOR_COLUMN',
                `Field "${field}" cannot accept the provided value`,
              ]
            }
            out[field] = Number(value)
          } else out[field] = type === 'text' ? String(value) : value
        }
        return out
      }

      try {
        if (req.method === 'GET') {
          const offset = url.searchParams.get('offset')
          let rows: AirtableRecordRow[]
          if (offset) {
            const rest = offsets.get(offset)
            if (!rest)
              return fail(res, 422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE', 'Invalid offset')
            offsets.delete(offset)
            rows = rest
          } else {
            const view = url.searchParams.get('view')
            const keep = view ? table.views?.[view] : undefined
            if (view && !keep)
              return fail(res, 422, 'VIEW_NAME_NOT_FOUND', `Could not find view ${view}`)
            const formula = url.searchParams.get('filterByFormula')
            let test: (fields: Record<string, unknown>) => boolean = () => true
            if (formula) {
              try {
                test = compileFormula(formula, table.fields)
              } catch (error) {
                return fail(
                  res,
                  422,
                  'INVALID_FILTER_BY_FORMULA',
                  `The formula for filtering records is invalid: ${(error as Error).message}`
                )
              }
            }
            rows = table.records.filter((record) => (!keep || keep(record)) && test(record.fields))
            const max = Number(url.searchParams.get('maxRecords') ?? 0)
            if (max > 0) rows = rows.slice(0, max)
          }
          const pageSize = Number(url.searchParams.get('pageSize') ?? 100)
          if (!(pageSize >= 1 && pageSize <= 100)) {
            return fail(res, 422, 'INVALID_REQUEST_UNKNOWN', 'pageSize must be between 1 and 100')
          }
          const page = rows.slice(0, pageSize)
          const answer: Record<string, unknown> = { records: page }
          if (rows.length > pageSize) {
            const next = `itr${++counter}/${page.at(-1)!.id}`
            offsets.set(next, rows.slice(pageSize))
            answer.offset = next
          }
          return sendJson(res, 200, answer)
        }
        if (req.method === 'POST' || req.method === 'PATCH') {
          const records = body?.records
          if (!Array.isArray(records) || records.length === 0 || records.length > 10) {
            return fail(res, 422, 'INVALID_RECORDS', 'Send between 1 and 10 records')
          }
          const typecast = body.typecast === true
          if (req.method === 'POST') {
            const made = records.map((record: any) => ({
              id: newRecordId(),
              createdTime: new Date().toISOString(),
              fields: typed(record.fields, typecast),
            }))
            table.records.push(...made)
            return sendJson(res, 200, { records: made })
          }
          const changed = records.map((record: any) => {
            const found = table.records.find((row) => row.id === record.id)
            if (!found) throw [404, 'NOT_FOUND', `Record ${record.id} not found`]
            return { found, fields: typed(record.fields, typecast) }
          })
          for (const { found, fields } of changed) Object.assign(found.fields, fields)
          return sendJson(res, 200, { records: changed.map(({ found }) => found) })
        }
        if (req.method === 'DELETE') {
          const ids = url.searchParams.getAll('records[]')
          if (ids.length === 0 || ids.length > 10) {
            return fail(res, 422, 'INVALID_RECORDS', 'Send between 1 and 10 records')
          }
          const missing = ids.find((id) => !table.records.some((row) => row.id === id))
          if (missing) return fail(res, 404, 'NOT_FOUND', `Record ${missing} not found`)
          table.records = table.records.filter((row) => !ids.includes(row.id))
          return sendJson(res, 200, { records: ids.map((id) => ({ id, deleted: true })) })
        }
        return sendJson(res, 404, { error: 'NOT_FOUND' })
      } catch (error) {
        if (Array.isArray(error)) return fail(res, error[0], error[1], error[2])
        throw error
      }
    },
    {
      record: ({ req, url, body }) => {
        const query: Record<string, string[]> = {}
        for (const [key, value] of url.searchParams) (query[key] ??= []).push(value)
        return {
          method: req.method ?? 'GET',
          path: url.pathname,
          headers: req.headers,
          body,
          query,
        }
      },
    }
  )
  return service
}
