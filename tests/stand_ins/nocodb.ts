import { sendJson, startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for NocoDB's v2 data API: `xc-token` checked, tables of records with an
 * auto-increment `Id`, `GET /api/v2/tables/{tableId}/records` with NocoDB's `where` syntax
 * (`(field,op,value)` joined by `~and` / `~or`; eq, neq, gt, lt, ge, le, like with `%`,
 * is/isnot null), `viewId`, `limit` (default 25, at most 1000) and `offset`, answered with
 * `{ list, pageInfo }`; `POST` (one record or a list) and `PATCH` (a list of `{ Id, ... }`);
 * `GET /api/v2/meta/bases` for the credential check. Errors are NocoDB's `{ msg }`.
 */

type Row = Record<string, unknown> & { Id: number }

export interface NocoTable {
  rows: Row[]
  /** Views by id: a view shows the rows its predicate keeps. */
  views?: Record<string, (row: Row) => boolean>
}

function parseWhere(where: string): (row: Row) => boolean {
  if (!where) return () => true
  // Split "(a,eq,1)~and(b,like,%x%)" at the joiners between comparisons.
  const pieces = where.split(/\)~(and|or)\(/)
  const comparisons: string[] = []
  const joiners: string[] = []
  pieces.forEach((piece, index) =>
    index % 2 === 0 ? comparisons.push(piece) : joiners.push(piece)
  )
  const tests = comparisons.map((raw, index) => {
    let text = raw
    if (index === 0) {
      if (!text.startsWith('(')) throw new Error(`Invalid where: ${where}`)
      text = text.slice(1)
    }
    if (index === comparisons.length - 1) {
      if (!text.endsWith(')')) throw new Error(`Invalid where: ${where}`)
      text = text.slice(0, -1)
    }
    const first = text.indexOf(',')
    const second = text.indexOf(',', first + 1)
    if (first < 0 || second < 0) throw new Error(`Invalid comparison: ${text}`)
    const field = text.slice(0, first)
    const op = text.slice(first + 1, second)
    const value = text.slice(second + 1)
    return (row: Row) => {
      const actual = row[field]
      const asText = actual === undefined || actual === null ? null : String(actual)
      const numeric = Number(value)
      switch (op) {
        case 'eq':
          return asText === value
        case 'neq':
          return asText !== value
        case 'gt':
        case 'lt':
        case 'ge':
        case 'le': {
          if (asText === null) return false
          const left =
            Number.isFinite(Number(actual)) && Number.isFinite(numeric) ? Number(actual) : asText
          const right = typeof left === 'number' ? numeric : value
          return op === 'gt'
            ? left > right
            : op === 'lt'
              ? left < right
              : op === 'ge'
                ? left >= right
                : left <= right
        }
        case 'like': {
          if (asText === null) return false
          const pattern = value
            .split('%')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')
          return new RegExp(`^${pattern}$`, 'i').test(asText)
        }
        case 'is':
          if (value !== 'null') throw new Error(`Unsupported value for is: ${value}`)
          return asText === null || asText === ''
        case 'isnot':
          if (value !== 'null') throw new Error(`Unsupported value for isnot: ${value}`)
          return asText !== null && asText !== ''
        default:
          throw new Error(`${op} is not supported.`)
      }
    }
  })
  return (row) => {
    let result = tests[0](row)
    joiners.forEach((joiner, index) => {
      const next = tests[index + 1](row)
      result = joiner === 'and' ? result && next : result || next
    })
    return result
  }
}

export async function startNocoDbStandIn(options: {
  token: string
  tables: Record<string, NocoTable>
}) {
  const { tables, token } = options
  let nextId = 1 + Math.max(0, ...Object.values(tables).flatMap((t) => t.rows.map((r) => r.Id)))
  const service = await startStandIn<StandInRequest & { query: Record<string, string> }>(
    ({ req, res, url, body, isJson, text }) => {
      if (req.headers['xc-token'] !== token) {
        return sendJson(res, 401, { msg: 'Authentication required - Invalid token' })
      }
      if (url.pathname === '/api/v2/meta/bases' && req.method === 'GET') {
        return sendJson(res, 200, { list: [{ id: 'p1', title: 'Shop' }], pageInfo: {} })
      }
      const match = /^\/api\/v2\/tables\/([^/]+)\/records$/.exec(url.pathname)
      const table = match ? tables[match[1]] : undefined
      if (!match) return sendJson(res, 404, { msg: `Cannot ${req.method} ${url.pathname}` })
      if (!table) return sendJson(res, 404, { msg: `Table '${match[1]}' not found` })
      if (text && !isJson) return sendJson(res, 400, { msg: 'Invalid JSON body' })

      if (req.method === 'GET') {
        const viewId = url.searchParams.get('viewId')
        const view = viewId ? table.views?.[viewId] : undefined
        if (viewId && !view) return sendJson(res, 404, { msg: `View '${viewId}' not found` })
        let keep: (row: Row) => boolean
        try {
          keep = parseWhere(url.searchParams.get('where') ?? '')
        } catch (error) {
          return sendJson(res, 422, { msg: (error as Error).message })
        }
        const rows = table.rows.filter((row) => (!view || view(row)) && keep(row))
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, 1000)
        const offset = Number(url.searchParams.get('offset') ?? 0) || 0
        const list = rows.slice(offset, offset + limit)
        return sendJson(res, 200, {
          list,
          pageInfo: {
            totalRows: rows.length,
            page: Math.floor(offset / limit) + 1,
            pageSize: limit,
            isFirstPage: offset === 0,
            isLastPage: offset + limit >= rows.length,
          },
        })
      }
      if (req.method === 'POST') {
        const records = Array.isArray(body) ? body : [body]
        if (records.some((record) => !record || typeof record !== 'object')) {
          return sendJson(res, 400, { msg: 'Invalid request body' })
        }
        const made = records.map((record) => {
          const row = { ...record, Id: nextId++ } as Row
          table.rows.push(row)
          return { Id: row.Id }
        })
        return sendJson(res, 200, Array.isArray(body) ? made : made[0])
      }
      if (req.method === 'PATCH') {
        const records = Array.isArray(body) ? body : [body]
        const missing = records.find((record) => !table.rows.some((row) => row.Id === record?.Id))
        if (missing) return sendJson(res, 404, { msg: `Record '${missing?.Id}' not found` })
        for (const record of records) {
          const row = table.rows.find((candidate) => candidate.Id === record.Id)!
          Object.assign(row, record)
        }
        return sendJson(
          res,
          200,
          records.map((record) => ({ Id: record.Id }))
        )
      }
      return sendJson(res, 405, { msg: 'Method not allowed' })
    },
    {
      record: ({ req, url, body }) => ({
        method: req.method ?? 'GET',
        path: url.pathname,
        headers: req.headers,
        body,
        query: Object.fromEntries(url.searchParams),
      }),
    }
  )
  return service
}
