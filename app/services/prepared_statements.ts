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

/**
 * Runs SQL written with knex's `?` placeholders on the primary PostgreSQL connection as a
 * named prepared statement, and answers its rows. Callers check `isPostgres()` first:
 * other dialects run the same SQL through `db.rawQuery`.
 */
export async function runPrepared<Row = Record<string, unknown>>(
  sql: string,
  bindings: unknown[]
): Promise<Row[]> {
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
