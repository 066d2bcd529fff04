import DataLoader from 'dataloader'
import { runPrepared } from '#services/prepared_statements'

/**
 * Group commit of chat turns on PostgreSQL. A turn reads its session and writes its rows in
 * one statement each; at a few thousand turns a second, what the web process and PostgreSQL
 * spent went mostly to the statements themselves (a socket write and a wake-up on each side,
 * the protocol, a commit), not to the rows. The turns that reach the same point while the
 * process handles one round of I/O now share their statement: their session reads are one
 * `= any(...)` read, and their writes one statement in which each table gets one
 * `unnest(...)` of all their rows. A turn alone in its round runs the statements it always
 * ran, so nothing waits when the server is not busy.
 *
 * A turn's guarantees hold: its answer is sent after the statement holding its rows
 * committed, and a statement is all or nothing. When a shared write fails (one turn's row
 * refused), each turn's rows are written again on their own, so only that turn fails.
 */

/** Rows one statement writes into one table: inserts, or updates by `id` (first column). */
export interface RowsWrite {
  kind: 'insert' | 'update'
  table: string
  columns: string[]
  rows: unknown[][]
}

/** A turn's writes: as rows to share, and as the statement it runs alone. */
export interface TurnWrites {
  parts: RowsWrite[]
  alone: () => Promise<unknown>
}

/** At most this many turns share a statement (its size, and the wait of the last one). */
const MAX_TURNS = 100

/** Runs the work at the end of the current round of I/O callbacks. */
const afterThisRound = (run: () => void) => {
  setImmediate(run)
}

/* ---------------------------------------------------------------- reads */

export interface SessionRow {
  id: string
  state: string
  expires_at: Date | null
  capability_stamp: string | number | null
}

export function sessionReader(one: string, many: string) {
  return new DataLoader<string, SessionRow | null>(
    async (ids) => {
      if (ids.length === 1) {
        const row = (await runPrepared<SessionRow>(one, [ids[0]]))[0]
        return [row ? { ...row, id: ids[0] } : null]
      }
      const rows = await runPrepared<SessionRow>(many, [[...new Set(ids)]])
      const byId = new Map(rows.map((row) => [row.id, row]))
      return ids.map((id) => byId.get(id) ?? null)
    },
    { cache: false, maxBatchSize: MAX_TURNS, batchScheduleFn: afterThisRound }
  )
}

/* --------------------------------------------------------------- writes */

/**
 * Column types, read once per table: an `unnest` of texts is cast to them. Without their
 * length (`character varying`, not `(32)`): a cast to a length cuts a longer text, where
 * writing it into the column refuses it, as the turn's own statement does.
 */
const columnTypes = new Map<string, Promise<Map<string, string>>>()

function typesOf(table: string) {
  let types = columnTypes.get(table)
  if (!types) {
    types = runPrepared<{ name: string; type: string }>(
      `select a.attname as "name", format_type(a.atttypid, null) as "type" from pg_attribute a where a.attrelid = ?::regclass and a.attnum > 0 and not a.attisdropped`,
      [table]
    ).then((rows) => new Map(rows.map((row) => [row.name, row.type])))
    types.catch(() => columnTypes.delete(table))
    columnTypes.set(table, types)
  }
  return types
}

function asText(value: unknown) {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Date) return value.toISOString()
  return String(value)
}

const quoted = (name: string) => `"${name}"`

/** One statement for the parts of several turns (texts cast to the columns' types). */
async function sharedStatement(turns: readonly TurnWrites[]) {
  const groups = new Map<string, RowsWrite>()
  for (const turn of turns) {
    for (const part of turn.parts) {
      const key = `${part.kind} ${part.table} ${part.columns.join(',')}`
      const group = groups.get(key)
      if (group) group.rows.push(...part.rows)
      else groups.set(key, { ...part, rows: [...part.rows] })
    }
  }
  const statements: string[] = []
  const bindings: unknown[] = []
  for (const { kind, table, columns, rows } of groups.values()) {
    const types = await typesOf(table)
    const typed = (column: string) => {
      const type = types.get(column)
      if (!type) throw new Error(`No column ${table}.${column}`)
      return `v.${quoted(column)}::${type}`
    }
    const source = `unnest(${columns.map(() => '?::text[]').join(', ')}) as v(${columns.map(quoted).join(', ')})`
    columns.forEach((_, index) => bindings.push(rows.map((row) => asText(row[index]))))
    statements.push(
      kind === 'insert'
        ? `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) select ${columns.map(typed).join(', ')} from ${source}`
        : `update ${quoted(table)} as t set ${columns
            .slice(1)
            .map((column) => `${quoted(column)} = ${typed(column)}`)
            .join(', ')} from ${source} where t."id" = ${typed('id')}`
    )
  }
  return { sql: oneStatement(statements), bindings }
}

/**
 * Writes as ONE PostgreSQL statement: the last is the statement, the others its
 * data-modifying CTEs, none returning anything (one round trip and one commit).
 */
export function oneStatement(statements: string[]) {
  const last = statements.length - 1
  return last === 0
    ? statements[0]
    : `WITH ${statements
        .slice(0, last)
        .map((statement, index) => `w${index} AS (${statement})`)
        .join(', ')} ${statements[last]}`
}

/** The rows a turn updates, by table and id: two turns updating one row never share. */
function updatedRows(turn: TurnWrites) {
  const keys: string[] = []
  for (const part of turn.parts) {
    if (part.kind === 'update') for (const row of part.rows) keys.push(`${part.table} ${row[0]}`)
  }
  return keys
}

/**
 * The turns in runs that update each row at most once (an update names a row once per
 * statement), in the order they came: a later write of a row stays after the earlier one.
 */
function runsWithoutSharedRows(turns: readonly TurnWrites[]) {
  const runs: TurnWrites[][] = []
  let run: TurnWrites[] = []
  let rows = new Set<string>()
  for (const turn of turns) {
    const keys = updatedRows(turn)
    if (keys.some((key) => rows.has(key))) {
      runs.push(run)
      run = []
      rows = new Set()
    }
    run.push(turn)
    for (const key of keys) rows.add(key)
  }
  if (run.length > 0) runs.push(run)
  return runs
}

async function writeRun(run: TurnWrites[]): Promise<(Error | null)[]> {
  if (run.length > 1) {
    try {
      const { sql, bindings } = await sharedStatement(run)
      await runPrepared(sql, bindings)
      return run.map(() => null)
    } catch {
      // Nothing of the shared statement was written: each turn on its own, so only the turn
      // whose rows are refused fails.
    }
  }
  return Promise.all(
    run.map((turn) =>
      turn.alone().then(
        () => null,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error)))
      )
    )
  )
}

const writer = new DataLoader<TurnWrites, null>(
  async (turns) => {
    const outcomes: (Error | null)[] = []
    for (const run of runsWithoutSharedRows(turns)) outcomes.push(...(await writeRun(run)))
    return outcomes
  },
  { cache: false, maxBatchSize: MAX_TURNS, batchScheduleFn: afterThisRound }
)

/** Writes a turn's rows, in a statement shared with the turns of the same round. */
export async function groupWrite(turn: TurnWrites) {
  await writer.load(turn)
}
