import type { Knex } from 'knex'
import { internalHostsAllowed, plainRows, sqlIdentifier, sqlPool, type SqlTarget } from '#sdk/data'
import type { AgentTool } from '#sdk/ai'
import { checkReadOnly } from './read_only.js'

/** What the agent gets back at most, in characters (a model's context is small). */
export const SQL_TOOL_MAX_ANSWER_CHARS = 20_000
export const SQL_TOOL_TIMEOUT_MS = 10_000
const MAX_TABLES = 500

type Engine = 'postgres' | 'mysql'

export interface SqlToolkitOptions {
  name?: string
  description?: string
  maxRows?: number | string
}

/** The database a toolkit node reads, from the PostgreSQL or MySQL plugin's credential. */
export function targetOf(engine: Engine, credentials: Record<string, unknown>): SqlTarget {
  const url = String((engine === 'postgres' ? credentials.url : credentials.mysqlURL) ?? '')
  if (!url.trim()) {
    throw new Error(
      `SQL toolkit: choose ${engine === 'postgres' ? 'PostgreSQL' : 'MySQL'} credentials`
    )
  }
  return { engine, url, allowInternal: internalHostsAllowed() }
}

function answer(value: unknown) {
  const text = JSON.stringify(value)
  return text.length > SQL_TOOL_MAX_ANSWER_CHARS
    ? `${text.slice(0, SQL_TOOL_MAX_ANSWER_CHARS)}… (cut at ${SQL_TOOL_MAX_ANSWER_CHARS} characters)`
    : text
}

/** A tool's failure goes back to the model as text, so it can correct its query. */
async function safely(work: () => Promise<unknown>) {
  try {
    return answer(await work())
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** `schema.table` or `table`, each part a checked name. */
function tableRef(value: unknown) {
  const text = typeof value === 'string' ? value.trim() : ''
  const parts = text.split('.')
  if (parts.length > 2) throw new Error(`Invalid table name "${text}"`)
  const table = sqlIdentifier(parts.at(-1), 'table')
  const schema = parts.length === 2 ? sqlIdentifier(parts[0], 'table') : null
  return { schema, table }
}

export async function listTables(engine: Engine, db: Knex) {
  const rows =
    engine === 'postgres'
      ? await db.raw(
          `SELECT table_schema AS "schema", table_name AS "name", table_type AS "type"
             FROM information_schema.tables
            WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
            ORDER BY 1, 2 LIMIT ?`,
          [MAX_TABLES]
        )
      : await db.raw(
          `SELECT TABLE_NAME AS name, TABLE_TYPE AS type
             FROM information_schema.TABLES
            WHERE TABLE_SCHEMA = DATABASE()
            ORDER BY 1 LIMIT ?`,
          [MAX_TABLES]
        )
  return engine === 'postgres' ? rows.rows : rows[0]
}

export async function describeTable(engine: Engine, db: Knex, name: unknown) {
  const { schema, table } = tableRef(name)
  let columns: Record<string, unknown>[]
  if (engine === 'postgres') {
    const result = await db.raw(
      `SELECT c.column_name AS "name", c.data_type AS "type", c.is_nullable = 'YES' AS "nullable",
              c.column_default AS "default",
              EXISTS (
                SELECT 1 FROM information_schema.table_constraints t
                  JOIN information_schema.key_column_usage k
                    ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema
                 WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema
                   AND t.table_name = c.table_name AND k.column_name = c.column_name
              ) AS "primaryKey"
         FROM information_schema.columns c
        WHERE c.table_name = ? AND c.table_schema = COALESCE(?, current_schema())
        ORDER BY c.ordinal_position`,
      [table, schema]
    )
    columns = result.rows
  } else {
    const [rows] = await db.raw(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE = 'YES' AS nullable,
              COLUMN_DEFAULT AS \`default\`, COLUMN_KEY = 'PRI' AS primaryKey
         FROM information_schema.COLUMNS
        WHERE TABLE_NAME = ? AND TABLE_SCHEMA = COALESCE(?, DATABASE())
        ORDER BY ORDINAL_POSITION`,
      [table, schema]
    )
    columns = rows.map((row: Record<string, unknown>) => ({
      ...row,
      nullable: Boolean(row.nullable),
      primaryKey: Boolean(row.primaryKey),
    }))
  }
  if (columns.length === 0)
    throw new Error(`Table "${schema ? `${schema}.` : ''}${table}" does not exist`)
  return { table: schema ? `${schema}.${table}` : table, columns }
}

/**
 * Runs a query that reads, twice locked: the statement check, then a read-only transaction
 * that is always rolled back (PostgreSQL's extended protocol and MySQL's connections without
 * multiple statements both refuse a second statement too). Stops after 10 s.
 */
export async function runReadOnlyQuery(engine: Engine, db: Knex, sql: unknown, maxRows: number) {
  const query = checkReadOnly(sql)
  const connection = await db.client.acquireConnection()
  try {
    let rows: Record<string, unknown>[]
    if (engine === 'postgres') {
      await connection.query('BEGIN READ ONLY')
      try {
        await connection.query(`SET LOCAL statement_timeout = ${SQL_TOOL_TIMEOUT_MS}`)
        const result = await connection.query({ text: query, values: [], queryMode: 'extended' })
        rows = result.rows ?? []
      } finally {
        await connection.query('ROLLBACK')
      }
    } else {
      const promised = connection.promise()
      await promised.query('START TRANSACTION READ ONLY')
      try {
        const [result] = await promised.query({ sql: query, timeout: SQL_TOOL_TIMEOUT_MS })
        rows = Array.isArray(result) ? (result as Record<string, unknown>[]) : []
      } finally {
        await promised.query('ROLLBACK')
      }
    }
    const shown = plainRows(rows.slice(0, maxRows))
    return {
      rowCount: rows.length,
      rows: shown,
      ...(rows.length > maxRows ? { note: `Only the first ${maxRows} rows are shown` } : {}),
    }
  } finally {
    await db.client.releaseConnection(connection)
  }
}

/** The three tools a toolkit node lends its agent. */
export function sqlToolkitTools(
  engine: Engine,
  target: SqlTarget,
  options: SqlToolkitOptions
): AgentTool[] {
  const prefix = /^[A-Za-z][A-Za-z0-9_]{0,29}$/.test(options.name?.trim() ?? '')
    ? options.name!.trim()
    : 'sql'
  const about = options.description?.trim() ? ` ${options.description.trim()}` : ''
  const dialect = engine === 'postgres' ? 'PostgreSQL' : 'MySQL'
  const maxRows = Math.min(Math.max(Number(options.maxRows) || 100, 1), 500)
  const db = () => sqlPool(target)
  return [
    {
      schema: {
        name: `${prefix}_list_tables`,
        description: `Lists the tables of the ${dialect} database.${about}`,
        parameters: { type: 'object', properties: {}, required: [] },
      },
      execute: () => safely(async () => listTables(engine, await db())),
    },
    {
      schema: {
        name: `${prefix}_describe_table`,
        description: `Describes the columns of a table of the ${dialect} database (name, type, nullable, default, primary key).${about}`,
        parameters: {
          type: 'object',
          properties: {
            table: { type: 'string', description: 'The table name, or schema.table' },
          },
          required: ['table'],
        },
      },
      execute: (args) => safely(async () => describeTable(engine, await db(), args.table)),
    },
    {
      schema: {
        name: `${prefix}_run_query`,
        description: `Runs one read-only ${dialect} query (SELECT, WITH, SHOW, EXPLAIN) and returns at most ${maxRows} rows as JSON. Writes are refused.${about}`,
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string', description: `One ${dialect} statement that reads` },
          },
          required: ['query'],
        },
      },
      execute: (args) =>
        safely(async () => runReadOnlyQuery(engine, await db(), args.query, maxRows)),
    },
  ]
}
