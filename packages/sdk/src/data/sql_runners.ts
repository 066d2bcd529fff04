import type { Runner, RunnerContext } from '../runner_types.js'
import {
  cleanColumns,
  cleanConditions,
  columnsFromDynamicData,
  createTable,
  deleteRows,
  findRows,
  insertRecord,
  mapRowsToVariables,
  plainRows,
  recordOf,
  runQuery,
  sqlPool,
  truncatedRowsMessage,
  updateRows,
  type SqlColumn,
  type SqlCondition,
  type SqlEngine,
  type SqlTarget,
} from './sql.js'
import type { KeyValueEntry, ResponseMappingEntry } from '../fields.js'

/**
 * The runners of a SQL database block, the same for every engine: each plugin's runner.ts
 * says only how its credentials name the database (`targetOf`). Logs and messages follow
 * Empty fields or conditions do nothing,
 * failures are logged with the driver's message and the flow goes on.
 */

interface SqlOptions {
  tableName?: string
  dynamicVariable?: string
  columns?: SqlColumn[]
  fields?: KeyValueEntry[]
  conditions?: SqlCondition[]
  responseMapping?: ResponseMappingEntry[]
  query?: string
  parameters?: { value?: string }[]
}

type Context = RunnerContext<SqlOptions, Record<string, unknown>>

export type SqlTargetOf = (context: Context) => SqlTarget | Promise<SqlTarget>

const NO_ROWS = "Couldn't find any rows matching the filter"

function messageOf(error: unknown) {
  return error instanceof Error ? error.message : String(error)
}

async function attempt<T>(context: Context, failure: string, work: () => Promise<T>) {
  try {
    return { ok: true as const, value: await work() }
  } catch (error) {
    context.logger.error(failure, messageOf(error))
    return { ok: false as const }
  }
}

export function sqlRunners(engine: SqlEngine, targetOf: SqlTargetOf) {
  const db = async (context: Context) => sqlPool(await targetOf(context))

  const createTableRunner: Runner<any, any> = async (context) => {
    const { options, variables, logger } = context as Context
    let columns: SqlColumn[]
    if (options.dynamicVariable) {
      const dynamic = columnsFromDynamicData(variables.get(options.dynamicVariable))
      if (!dynamic) return void logger.error('Dynamic data variable is undefined or empty.')
      columns = cleanColumns(dynamic)
    } else {
      columns = cleanColumns(options.columns)
    }
    if (columns.length === 0) return void logger.error('No columns provided for table creation.')
    const done = await attempt(context as Context, 'Create table failed', async () =>
      createTable(await db(context as Context), options.tableName, columns)
    )
    if (!done.ok) return
    logger.success(`Table "${done.value}" created successfully.`)
    return { output: { table: done.value, columns: columns.map((c) => c.columnName) } }
  }

  const createRecordRunner: Runner<any, any> = async (context) => {
    const { options, logger } = context as Context
    const done = await attempt(context as Context, 'Insert failed', async () => {
      const record = recordOf(options.fields)
      if (Object.keys(record).length === 0) return null
      await insertRecord(await db(context as Context), options.tableName, record)
      return record
    })
    if (!done.ok || !done.value) return
    logger.success('Record added successfully')
    return { output: { record: done.value } }
  }

  const getDataRunner: Runner<any, any> = async (context) => {
    const { options, variables, logger } = context as Context
    const conditions = cleanConditions(options.conditions)
    if (conditions.length === 0) return
    const done = await attempt(context as Context, 'Find failed', async () =>
      findRows(engine, await db(context as Context), options.tableName, conditions)
    )
    if (!done.ok) return
    const rows = plainRows(done.value.rows)
    if (rows.length === 0) {
      logger.info(NO_ROWS)
      return { output: { rows: [], rowCount: 0 } }
    }
    if (done.value.truncated) logger.info(truncatedRowsMessage())
    mapRowsToVariables(rows, options.responseMapping, variables, logger)
    return { output: { rows, rowCount: rows.length } }
  }

  const updateRunner: Runner<any, any> = async (context) => {
    const { options, logger } = context as Context
    const conditions = cleanConditions(options.conditions)
    if (conditions.length === 0) return
    const done = await attempt(context as Context, 'Update failed', async () => {
      const record = recordOf(options.fields)
      if (Object.keys(record).length === 0) return null
      return updateRows(engine, await db(context as Context), options.tableName, conditions, record)
    })
    if (!done.ok || done.value === null) return
    if (done.value === 0) logger.info(NO_ROWS)
    else logger.success('Record updated successfully')
    return { output: { rowCount: done.value } }
  }

  const deleteRunner: Runner<any, any> = async (context) => {
    const { options, logger } = context as Context
    const conditions = cleanConditions(options.conditions)
    if (conditions.length === 0) return
    const done = await attempt(context as Context, 'Delete failed', async () =>
      deleteRows(engine, await db(context as Context), options.tableName, conditions)
    )
    if (!done.ok) return
    if (done.value === 0) logger.info(NO_ROWS)
    else logger.success('Record deleted successfully')
    return { output: { rowCount: done.value } }
  }

  const runQueryRunner: Runner<any, any> = async (context) => {
    const { options, variables, logger, surface } = context as Context
    if (surface !== 'workflow') return void logger.error('Run query is a workflow action')
    const parameters = (Array.isArray(options.parameters) ? options.parameters : []).map(
      (parameter) => parameter?.value ?? null
    )
    const done = await attempt(context as Context, 'Query failed', async () =>
      runQuery(engine, await db(context as Context), options.query ?? '', parameters)
    )
    if (!done.ok) return
    const rows = plainRows(done.value.rows)
    if (done.value.truncated) logger.info(truncatedRowsMessage())
    if (rows.length > 0) mapRowsToVariables(rows, options.responseMapping, variables, logger)
    logger.success(`Query done (${done.value.rowCount} rows)`)
    return { output: { rows, rowCount: done.value.rowCount } }
  }

  return {
    'Create table': createTableRunner,
    'Create record': createRecordRunner,
    'Get data': getDataRunner,
    'Update': updateRunner,
    'Delete': deleteRunner,
    'Run query': runQueryRunner,
  }
}

/**
 * What `/api/{plugin}/{call}` runs: the call names
 * (the same for every data plugin) and the action each one is.
 */
export const SQL_API_CALLS = {
  createTable: 'Create table',
  insertRecord: 'Create record',
  findRecord: 'Get data',
  updateRecord: 'Update',
  deleteRecord: 'Delete',
} as const

/** The credential's Test button: one `SELECT 1` through the pool the blocks will use. */
export async function testSqlConnection(target: SqlTarget) {
  try {
    const db = await sqlPool(target)
    await db.raw('SELECT 1').timeout(10_000, { cancel: target.engine !== 'sqlite' })
    return { ok: true, message: 'Connected.' }
  } catch (error) {
    return { ok: false, message: messageOf(error) }
  }
}
