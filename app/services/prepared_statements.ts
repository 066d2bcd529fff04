import db from '@adonisjs/lucid/services/db'

/**
 * Named prepared statements on PostgreSQL, for the statements of the hot paths (a chat
 * turn's session read and its writes). Through knex every call sends the SQL text, and
 * PostgreSQL parses, analyses and plans it again: a third of the database's CPU for a
 * primary-key read. A named statement is parsed once per connection (node-postgres keeps
 * the names it prepared on each connection), and later calls send only the values.
 *
 * Names are given per distinct SQL text and per process, so one name always means one
 * text. Statements that vary without end would fill every connection, so past
 * MAX_NAMED texts the rest run unnamed. Behind PgBouncer in transaction mode, set its
 * `max_prepared_statements` (1.21+) so that named statements follow the connection.
 */

const MAX_NAMED = 100
/** By SQL text with `?` placeholders: its name and its text with `$n` placeholders. */
const statements = new Map<string, { name: string; text: string }>()

function statementOf(sql: string, client: KnexClient) {
  const known = statements.get(sql)
  if (known) return known
  const statement = { name: `flowcraft_${statements.size}`, text: client.positionBindings(sql) }
  if (statements.size < MAX_NAMED) statements.set(sql, statement)
  else return { name: undefined, text: statement.text }
  return statement
}

interface PgConnection {
  query(config: {
    name?: string
    text: string
    values: unknown[]
  }): Promise<{ rows: any[]; rowCount: number | null }>
}

interface KnexClient {
  emit(event: 'query', query: { sql: string; bindings: unknown[]; name?: string }): boolean
  acquireConnection(): Promise<PgConnection>
  releaseConnection(connection: PgConnection): Promise<void>
  positionBindings(sql: string): string
}

let primaryDialect: string | undefined

/** The primary connection's dialect (fixed for the process: read once). */
export function dialectName() {
  primaryDialect ??= db.connection().dialect.name
  return primaryDialect
}

export function isPostgres() {
  return dialectName() === 'postgres'
}

/** The embedded set-up's driver: synchronous, one connection (knex's pool of one). */
export function isBetterSqlite() {
  return dialectName() === 'better-sqlite3'
}

/** Whether runPrepared and runPreparedWrites serve this connection (else knex's rawQuery). */
export function hasPreparedStatements() {
  return isPostgres() || isBetterSqlite()
}

/**
 * Runs SQL written with knex's `?` placeholders on the primary PostgreSQL connection as a
 * named prepared statement, and answers its rows. Callers check `isPostgres()` first:
 * other dialects run the same SQL through `db.rawQuery`.
 */
export async function runPrepared<Row = Record<string, unknown>>(
  sql: string,
  bindings: unknown[]
): Promise<Row[]> {
  if (isBetterSqlite()) return (await runSqlite([{ sql, bindings }])) as Row[]
  const client = db.connection().getWriteClient().client as unknown as KnexClient
  const { name, text } = statementOf(sql, client)
  // Knex's own listeners (debugging, the statement counts of the tests) still see it.
  client.emit('query', { sql: text, bindings, name })
  const connection = await client.acquireConnection()
  try {
    const result = await connection.query({ name, text, values: bindings })
    return result.rows as Row[]
  } finally {
    await client.releaseConnection(connection)
  }
}

/**
 * better-sqlite3, as knex drives it, prepares (compiles) every statement again at each call,
 * and each write outside a transaction is a commit of its own (a sync of the WAL): a chat
 * turn's three writes were three commits. Here the statements are compiled once per
 * connection and SQL text, and the statements of one call run in one transaction: one commit
 * per turn, all or nothing as on PostgreSQL. The driver is synchronous, so the connection is
 * held only while they run.
 */
interface SqliteStatement {
  reader: boolean
  all(...bindings: unknown[]): unknown[]
  run(...bindings: unknown[]): unknown
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement
  transaction(run: () => unknown[]): () => unknown[]
}

interface SqliteClient {
  emit(event: 'query', query: { sql: string; bindings: unknown[] }): boolean
  acquireConnection(): Promise<SqliteConnection>
  releaseConnection(connection: SqliteConnection): Promise<void>
}

const sqliteStatements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>()

function sqliteStatement(connection: SqliteConnection, sql: string) {
  let compiled = sqliteStatements.get(connection)
  if (!compiled) {
    compiled = new Map()
    sqliteStatements.set(connection, compiled)
  }
  let statement = compiled.get(sql)
  if (!statement) {
    statement = connection.prepare(sql)
    // Texts that vary without end are compiled at each call, as knex does.
    if (compiled.size < MAX_NAMED) compiled.set(sql, statement)
  }
  return statement
}

/** The values as knex's better-sqlite3 client passes them (booleans as 0/1, dates as ms). */
function sqliteValue(value: unknown) {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return value.valueOf()
  return value
}

/** Runs the statements in one transaction and answers the last one's rows (if it reads). */
async function runSqlite(batch: { sql: string; bindings: unknown[] }[]) {
  const client = db.connection().getWriteClient().client as unknown as SqliteClient
  for (const { sql, bindings } of batch) client.emit('query', { sql, bindings })
  const connection = await client.acquireConnection()
  try {
    const run = () => {
      let rows: unknown[] = []
      for (const { sql, bindings } of batch) {
        const statement = sqliteStatement(connection, sql)
        const values = bindings.map(sqliteValue)
        if (statement.reader) rows = statement.all(...values)
        else {
          statement.run(...values)
          rows = []
        }
      }
      return rows
    }
    // One statement is a transaction of its own already.
    return batch.length === 1 ? run() : connection.transaction(run)()
  } finally {
    await client.releaseConnection(connection)
  }
}

/**
 * Writes that go together (a chat turn's), on better-sqlite3: one transaction, each
 * statement compiled once. Callers check `isBetterSqlite()` first.
 */
export async function runPreparedWrites(writes: { sql: string; bindings: unknown[] }[]) {
  if (writes.length > 0) await runSqlite(writes)
}
