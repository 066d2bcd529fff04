import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Knex } from 'knex'
import type { RunnerLogger, RunnerVariables } from '../runner_types.js'
import { cleanKeyValue, type KeyValueEntry, type ResponseMappingEntry } from '../fields.js'
import { toVariableValue } from '../json_path.js'
import { IdleCache } from './connections.js'
import { checkDatabaseHost } from './hosts.js'

/**
 * The SQL the database plugins (PostgreSQL, MySQL, SQLite) run, built with knex: values are
 * always bound parameters, table and column names are checked against a strict pattern and
 * then quoted by the dialect, each query stops after 10 s, and at most 1,000 rows are mapped
 * into variables. Connections are pooled per credential (docs/security.md, "Database blocks").
 */

export type SqlEngine = 'postgres' | 'mysql' | 'sqlite'

export const SQL_QUERY_TIMEOUT_MS = 10_000
export const SQL_MAX_MAPPED_ROWS = 1_000
/** Connections one credential's pool may hold at once. */
export const SQL_POOL_MAX = 5

export const SQL_COLUMN_TYPES = ['VARCHAR', 'INT', 'INTEGER', 'FLOAT', 'BOOLEAN', 'DATE'] as const
export type SqlColumnType = (typeof SQL_COLUMN_TYPES)[number]

export const SQL_OPERATORS = [
  'Equal to',
  'Not equal',
  'Greater than',
  'Less than',
  'Contains',
  'Starts with',
  'Ends with',
  'Is set',
  'Is empty',
] as const
export type SqlOperator = (typeof SQL_OPERATORS)[number]

export interface SqlColumn {
  columnName?: string
  type?: string
  isPrimaryKey?: boolean
  isNullable?: boolean
  length?: number | string
}

export interface SqlCondition {
  column?: string
  operator?: string
  value?: unknown
}

/** A name that is refused before any SQL is built. */
export class SqlIdentifierError extends Error {
  name = 'SqlIdentifierError'
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

/**
 * Table and column names come from the builder or from variables: only letters, digits and
 * underscores (not starting with a digit, at most 63 characters, PostgreSQL's limit) pass.
 * The dialect then quotes them, so a name can be neither a keyword clash nor SQL.
 */
export function sqlIdentifier(value: unknown, what: 'table' | 'column'): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (!IDENTIFIER.test(name)) {
    throw new SqlIdentifierError(
      `Invalid ${what} name "${String(value ?? '')}": use letters, digits and underscores, starting with a letter or an underscore`
    )
  }
  return name
}

// ---------------------------------------------------------------------------
// Connections
// ---------------------------------------------------------------------------

interface PoolEntry {
  db: Knex
  /** Connections this pool has opened since it was made (the pooling test reads it). */
  opened: number
}

const pools = new IdleCache<PoolEntry>((entry) => entry.db.destroy())

function poolKey(parts: unknown[]) {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex')
}

function poolConfig(entry: { opened: number }): Knex.PoolConfig {
  return {
    min: 0,
    max: SQL_POOL_MAX,
    // Idle connections go back to the server quickly; the pool itself closes later.
    idleTimeoutMillis: 30_000,
    afterCreate(connection: unknown, done: (error: Error | null, connection: unknown) => void) {
      entry.opened += 1
      done(null, connection)
    },
  }
}

function parseUrl(url: string, protocols: string[], label: string) {
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    throw new Error(`The ${label} connection URL is not a valid URL`)
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new Error(
      `The ${label} connection URL must start with ${protocols.map((p) => `${p}//`).join(' or ')}`
    )
  }
  return parsed
}

function tlsOf(parsed: URL, hostname: string) {
  const mode = parsed.searchParams.get('sslmode') ?? parsed.searchParams.get('ssl-mode')
  const ssl = parsed.searchParams.get('ssl')
  if (mode === 'disable' || ssl === 'false' || (!mode && !ssl)) return undefined
  // We connect to the checked address: the certificate is still checked against the name.
  const verify = !['require', 'prefer', 'allow', 'REQUIRED', 'PREFERRED'].includes(mode ?? '')
  return { rejectUnauthorized: verify, servername: hostname }
}

async function serverConnection(
  engine: 'postgres' | 'mysql',
  url: string,
  allowInternal: boolean
): Promise<Knex.Config['connection']> {
  const parsed =
    engine === 'postgres'
      ? parseUrl(url, ['postgres:', 'postgresql:'], 'PostgreSQL')
      : parseUrl(url, ['mysql:', 'mariadb:'], 'MySQL')
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '')
  const host = await checkDatabaseHost(hostname, { allowInternal })
  const common = {
    host,
    port: Number(parsed.port) || (engine === 'postgres' ? 5432 : 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
    ssl: tlsOf(parsed, hostname),
  }
  if (engine === 'postgres') {
    return {
      ...common,
      // The server stops a statement after the timeout even if our cancel does not reach it.
      statement_timeout: SQL_QUERY_TIMEOUT_MS,
      application_name: parsed.searchParams.get('application_name') ?? 'flowcraft',
      connectionTimeoutMillis: SQL_QUERY_TIMEOUT_MS,
    } as Knex.PgConnectionConfig
  }
  return {
    ...common,
    connectTimeout: SQL_QUERY_TIMEOUT_MS,
    // Dates and big numbers come back as text, as they are stored.
    dateStrings: true,
    supportBigNumbers: true,
  } as Knex.MySql2ConnectionConfig
}

export interface SqlTarget {
  engine: SqlEngine
  /** postgres:// or mysql:// URL; for SQLite, the database file's path. */
  url: string
  /** ALLOW_INTERNAL_HTTP: database hosts follow the HTTP block's rule. */
  allowInternal: boolean
}

function targetKey(target: SqlTarget) {
  return poolKey([target.engine, target.url.trim(), target.allowInternal])
}

/** The pooled knex instance of a credential (made on first use, closed when idle). */
export async function sqlPool(target: SqlTarget): Promise<Knex> {
  return (await pools.use(targetKey(target), () => createPool(target))).db
}

/**
 * knex and its drivers are optional peers of the SDK: loaded when a pool is first made, so a
 * plugin that only asks about hosts or files needs neither.
 */
async function loadKnex() {
  try {
    return (await import('knex')).default
  } catch (error) {
    throw new Error('The SQL helpers of @flowcraft/sdk/data need the knex package installed', {
      cause: error,
    })
  }
}

async function createPool(target: SqlTarget): Promise<PoolEntry> {
  const knex = await loadKnex()
  const entry = { opened: 0 } as PoolEntry
  const base = { pool: poolConfig(entry), acquireConnectionTimeout: SQL_QUERY_TIMEOUT_MS }
  if (target.engine === 'sqlite') {
    entry.db = knex({
      ...base,
      client: 'better-sqlite3',
      connection: { filename: target.url },
      useNullAsDefault: true,
    })
  } else {
    entry.db = knex({
      ...base,
      client: target.engine === 'postgres' ? 'pg' : 'mysql2',
      connection: await serverConnection(target.engine, target.url, target.allowInternal),
    })
  }
  return entry
}

/** How many connections the pool of this credential has opened (tests). */
export async function sqlConnectionsOpened(target: SqlTarget): Promise<number> {
  return (await pools.use(targetKey(target), () => createPool(target))).opened
}

/** Closes every database pool (shutdown, tests). */
export function closeSqlPools() {
  return pools.closeAll()
}

const SQLITE_FILE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\.(sqlite3?|db))?$/

/**
 * The path of a workspace's SQLite database: a file on the app's local disk, under
 * STORAGE_PATH/private/workspaces/{workspaceId}/sqlite/, never served over HTTP. The name is
 * one plain file name, so it cannot leave that folder.
 */
export function sqliteFileOf(storageRoot: string, workspaceId: string, fileName: unknown): string {
  const name = typeof fileName === 'string' ? fileName.trim() : ''
  if (!SQLITE_FILE.test(name)) {
    throw new SqlIdentifierError(
      `Invalid database file name "${name}": letters, digits, "-" and "_", optionally ending in .sqlite, .sqlite3 or .db`
    )
  }
  if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) throw new Error('Invalid workspace')
  const folder = join(storageRoot, 'private', 'workspaces', workspaceId, 'sqlite')
  mkdirSync(folder, { recursive: true })
  return join(folder, /\.(sqlite3?|db)$/.test(name) ? name : `${name}.sqlite3`)
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

export function cleanColumns(columns: readonly SqlColumn[] | null | undefined) {
  return (Array.isArray(columns) ? columns : []).filter(
    (column) => typeof column?.columnName === 'string' && column.columnName.trim() !== ''
  )
}

/** The type names a store gives a column whose sample value is of each kind. */
export interface SampleColumnTypes {
  integer: string
  float: string
  boolean: string
  text: string
}

const SQL_SAMPLE_TYPES: SampleColumnTypes = {
  integer: 'INTEGER',
  float: 'FLOAT',
  boolean: 'BOOLEAN',
  text: 'VARCHAR',
}

/**
 * The columns of a Create table (or collection) run: from the variable holding dynamic data
 * when one is chosen (a JSON list of columns, or a JSON object whose keys are the column
 * names and whose values show their types, named as `types` says), else null.
 */
export function columnsFromDynamicData(
  value: unknown,
  types: SampleColumnTypes = SQL_SAMPLE_TYPES
): SqlColumn[] | null {
  if (value === undefined || value === null || value === '') return null
  const text = Array.isArray(value) ? `[${value.join(',')}]` : String(value)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (Array.isArray(parsed)) return parsed.filter((c) => c && typeof c === 'object')
  if (parsed && typeof parsed === 'object') {
    return Object.entries(parsed).map(([columnName, sample]) => ({
      columnName,
      type:
        typeof sample === 'number'
          ? Number.isInteger(sample)
            ? types.integer
            : types.float
          : typeof sample === 'boolean'
            ? types.boolean
            : types.text,
    }))
  }
  return null
}

export async function createTable(db: Knex, tableName: unknown, columns: readonly SqlColumn[]) {
  const table = sqlIdentifier(tableName, 'table')
  const checked = columns.map((column) => ({
    ...column,
    name: sqlIdentifier(column.columnName, 'column'),
    type: String(column.type ?? 'VARCHAR').toUpperCase(),
  }))
  const primary = checked.filter((column) => column.isPrimaryKey).map((column) => column.name)
  await db.schema.createTable(table, (builder) => {
    for (const column of checked) {
      const length = Number(column.length)
      const made =
        column.type === 'INT' || column.type === 'INTEGER'
          ? builder.integer(column.name)
          : column.type === 'FLOAT'
            ? builder.float(column.name)
            : column.type === 'BOOLEAN'
              ? builder.boolean(column.name)
              : column.type === 'DATE'
                ? builder.date(column.name)
                : builder.string(
                    column.name,
                    Number.isInteger(length) && length > 0 ? Math.min(length, 65_535) : 255
                  )
      if (column.isPrimaryKey || column.isNullable === false) made.notNullable()
      else made.nullable()
    }
    if (primary.length > 0) builder.primary(primary)
  })
  return table
}

/** The record of a Create record or Update: entries with an empty key or value are skipped. */
export function recordOf(fields: readonly KeyValueEntry[] | null | undefined) {
  const record: Record<string, string> = {}
  for (const { key, value } of cleanKeyValue(fields)) record[sqlIdentifier(key, 'column')] = value
  return record
}

export function cleanConditions(conditions: readonly SqlCondition[] | null | undefined) {
  return (Array.isArray(conditions) ? conditions : []).filter(
    (condition) => typeof condition?.column === 'string' && condition.column.trim() !== ''
  )
}

function likePattern(value: unknown, where: 'contains' | 'starts' | 'ends') {
  const escaped = String(value ?? '').replace(/[!%_]/g, (c) => `!${c}`)
  return where === 'contains' ? `%${escaped}%` : where === 'starts' ? `${escaped}%` : `%${escaped}`
}

function applyConditions(
  engine: SqlEngine,
  query: Knex.QueryBuilder,
  conditions: readonly SqlCondition[]
) {
  // LIKE on a number or a date column needs text on PostgreSQL and MySQL.
  const asText =
    engine === 'postgres' ? 'CAST(?? AS TEXT)' : engine === 'mysql' ? 'CAST(?? AS CHAR)' : '??'
  for (const condition of conditions) {
    const column = sqlIdentifier(condition.column, 'column')
    const value = condition.value === undefined || condition.value === null ? '' : condition.value
    switch (condition.operator as SqlOperator) {
      case 'Not equal':
        query.whereNot(column, value as any)
        break
      case 'Greater than':
        query.where(column, '>', value as any)
        break
      case 'Less than':
        query.where(column, '<', value as any)
        break
      case 'Contains':
      case 'Starts with':
      case 'Ends with': {
        const where =
          condition.operator === 'Contains'
            ? 'contains'
            : condition.operator === 'Starts with'
              ? 'starts'
              : 'ends'
        query.whereRaw(`${asText} LIKE ? ESCAPE '!'`, [column, likePattern(value, where)])
        break
      }
      case 'Is set':
        query.whereNotNull(column)
        break
      case 'Is empty':
        query.whereNull(column)
        break
      default:
        query.where(column, value as any)
    }
  }
  return query
}

/**
 * PostgreSQL and MySQL cancel a query that runs past the timeout on the server; SQLite runs
 * in this process (better-sqlite3 is synchronous), where there is nothing to cancel.
 */
function cancelOn(db: Knex) {
  return { cancel: db.client.config.client !== 'better-sqlite3' }
}

export async function insertRecord(db: Knex, tableName: unknown, record: Record<string, string>) {
  const table = sqlIdentifier(tableName, 'table')
  await db(table).insert(record).timeout(SQL_QUERY_TIMEOUT_MS, cancelOn(db))
}

export interface FoundRows {
  rows: Record<string, unknown>[]
  /** More rows matched than are mapped. */
  truncated: boolean
}

export async function findRows(
  engine: SqlEngine,
  db: Knex,
  tableName: unknown,
  conditions: readonly SqlCondition[]
): Promise<FoundRows> {
  const table = sqlIdentifier(tableName, 'table')
  const rows = (await applyConditions(engine, db(table).select('*'), conditions)
    .limit(SQL_MAX_MAPPED_ROWS + 1)
    .timeout(SQL_QUERY_TIMEOUT_MS, cancelOn(db))) as Record<string, unknown>[]
  return {
    rows: rows.slice(0, SQL_MAX_MAPPED_ROWS),
    truncated: rows.length > SQL_MAX_MAPPED_ROWS,
  }
}

export async function updateRows(
  engine: SqlEngine,
  db: Knex,
  tableName: unknown,
  conditions: readonly SqlCondition[],
  record: Record<string, string>
): Promise<number> {
  const table = sqlIdentifier(tableName, 'table')
  const count = await applyConditions(engine, db(table), conditions)
    .update(record)
    .timeout(SQL_QUERY_TIMEOUT_MS, cancelOn(db))
  return Number(count) || 0
}

export async function deleteRows(
  engine: SqlEngine,
  db: Knex,
  tableName: unknown,
  conditions: readonly SqlCondition[]
): Promise<number> {
  const table = sqlIdentifier(tableName, 'table')
  const count = await applyConditions(engine, db(table), conditions)
    .delete()
    .timeout(SQL_QUERY_TIMEOUT_MS, cancelOn(db))
  return Number(count) || 0
}

/**
 * A query the builder wrote, with its parameters bound: `$1, $2` on PostgreSQL, `?` on MySQL
 * and SQLite. One statement only: PostgreSQL gets it through the extended protocol, MySQL
 * connections do not allow several statements, and SQLite prepares a single one, so a
 * parameter holding `1; DROP TABLE x` is a value and a second statement is refused.
 */
export async function runQuery(
  engine: SqlEngine,
  db: Knex,
  sql: string,
  parameters: readonly unknown[]
): Promise<FoundRows & { rowCount: number }> {
  if (!sql.trim()) throw new Error('The query is empty')
  const connection = await db.client.acquireConnection()
  try {
    let rows: Record<string, unknown>[] = []
    let rowCount = 0
    if (engine === 'postgres') {
      const result = await connection.query({
        text: sql,
        values: [...parameters],
        queryMode: 'extended',
      })
      rows = result.rows ?? []
      rowCount = result.rowCount ?? rows.length
    } else if (engine === 'mysql') {
      const [result] = await connection
        .promise()
        .query({ sql, values: [...parameters], timeout: SQL_QUERY_TIMEOUT_MS })
      if (Array.isArray(result)) {
        rows = result as Record<string, unknown>[]
        rowCount = rows.length
      } else {
        rowCount = Number(result?.affectedRows ?? 0)
      }
    } else {
      const statement = connection.prepare(sql)
      if (statement.reader) {
        rows = statement.all(...parameters)
        rowCount = rows.length
      } else {
        rowCount = statement.run(...parameters).changes
      }
    }
    return {
      rows: rows.slice(0, SQL_MAX_MAPPED_ROWS),
      truncated: rows.length > SQL_MAX_MAPPED_ROWS,
      rowCount,
    }
  } finally {
    await db.client.releaseConnection(connection)
  }
}

// ---------------------------------------------------------------------------
// Response mapping
// ---------------------------------------------------------------------------

function cellValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (Buffer.isBuffer(value)) return value.toString('base64')
  if (typeof value === 'bigint') return value.toString()
  return value
}

/** Rows as JSON values (dates as ISO text, big numbers as text) for outputs and responses. */
export function plainRows(rows: readonly Record<string, unknown>[]) {
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, cellValue(value)]))
  )
}

/**
 * Saves columns of the rows found into variables: one row gives its value, several rows the
 * list of their values. A column the rows do not have is logged and its
 * variable left as it was.
 */
export function mapRowsToVariables(
  rows: readonly Record<string, unknown>[],
  mapping: readonly ResponseMappingEntry[] | null | undefined,
  variables: RunnerVariables,
  logger: RunnerLogger,
  source = 'table'
) {
  for (const entry of Array.isArray(mapping) ? mapping : []) {
    const name = entry.field?.trim()
    if (!name || !entry.variableId) continue
    if (!rows.some((row) => Object.prototype.hasOwnProperty.call(row, name))) {
      logger.info(`Field ${name} does not exist in the ${source}`)
      continue
    }
    const values = rows.map((row) => cellValue(row[name]))
    const value =
      values.length === 1
        ? typeof values[0] === 'number' || typeof values[0] === 'boolean'
          ? values[0]
          : toVariableValue(values[0])
        : toVariableValue(values)
    variables.set(entry.variableId, value)
  }
}

/** The info log when more rows matched than are mapped. */
export function truncatedRowsMessage() {
  return `Only the first ${SQL_MAX_MAPPED_ROWS.toLocaleString('en-US')} rows were kept`
}
