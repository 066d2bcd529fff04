import type { Runner, RunnerContext } from '#sdk/plugin'
import { mapRowsToVariables } from '#sdk/data'
import type { Document } from 'mongodb'
import type plugin from './index.js'
import { mongoClient, MONGODB_TIMEOUT_MS } from './lib/client.js'
import {
  cleanColumns,
  collectionName,
  columnsFromDynamicData,
  databaseName,
  documentOf,
  fieldTypesOf,
  filterOf,
  plainDocuments,
  projectionOf,
  validatorOf,
  type MongoCondition,
  type ProjectionEntry,
} from './lib/documents.js'

/** Documents mapped into variables at most; more are cut with an info log. */
export const MONGODB_MAX_DOCUMENTS = 1_000

type Action = keyof NonNullable<(typeof plugin)['actions']>

interface Options {
  database?: string
  collection?: string
  isStrict?: boolean
  dynamicVariable?: string
  columns?: { columnName?: string; type?: string }[]
  projection?: ProjectionEntry[]
  conditions?: MongoCondition[]
  responseMapping?: { field?: string; variableId?: string }[]
  fields?: { key?: string; value?: string }[]
  updates?: { key?: string; value?: string }[]
}

type Context = RunnerContext<Options, { baseUrl?: string }>

/** Each command stops on the server after 10 s. */
const timed = { maxTimeMS: MONGODB_TIMEOUT_MS }

const NO_DOCUMENTS = 'No matching documents found in the collection'
const NO_DOCUMENT = 'No matching document found in the collection'

function messageOf(error: unknown) {
  return error instanceof Error ? error.message : String(error)
}

/** The collection a block names, on the credential's client. */
async function target(context: Context) {
  const { client, defaultDatabase } = await mongoClient(String(context.credentials.baseUrl ?? ''))
  const db = client.db(databaseName(context.options.database, defaultDatabase))
  const name = collectionName(context.options.collection)
  return { db, name, collection: db.collection(name) }
}

/** The field types the collection's validator declares (none for a collection without one). */
async function fieldTypes(db: import('mongodb').Db, name: string) {
  const [info] = await db.listCollections({ name }, { nameOnly: false, ...timed }).toArray()
  return fieldTypesOf((info as any)?.options?.validator as Document | undefined)
}

/**
 * Runs one action; a failure is logged with `failure` and the driver's message (a bot goes
 * on, a workflow node fails), as for every data block.
 */
function action(
  failure: string,
  work: (context: Context) => Promise<unknown>
): Runner<typeof plugin, any> {
  return async (context) => {
    const ctx = context as unknown as Context
    try {
      return (await work(ctx)) as any
    } catch (error) {
      ctx.logger.error(failure, messageOf(error))
    }
  }
}

const runners: Record<Action, Runner<typeof plugin, any>> = {
  'Create table': action('Create collection failed', async (context) => {
    const { options, variables, logger } = context
    const name = collectionName(options.collection)
    let columns = cleanColumns(options.columns)
    if (options.dynamicVariable) {
      const dynamic = columnsFromDynamicData(variables.get(options.dynamicVariable))
      if (!dynamic) return void logger.error('Dynamic data variable is undefined or empty.')
      columns = cleanColumns(dynamic)
    }
    if (options.isStrict && columns.length === 0) {
      return void logger.error(
        `Collection "${name}" can't be created without columns or dynamic data`
      )
    }
    const validator = validatorOf(columns, Boolean(options.isStrict))
    const { db } = await target(context)
    await db.createCollection(name, {
      ...(validator ? { validator, validationLevel: 'strict', validationAction: 'error' } : {}),
    })
    logger.success(`Collection "${name}" created successfully`)
    return {
      output: {
        collection: name,
        strict: Boolean(options.isStrict),
        fields: columns.map((column) => column.columnName),
      },
    }
  }),

  'Search': action('Find failed', async (context) => {
    const { options, variables, logger } = context
    const { db, name, collection } = await target(context)
    const filter = filterOf(options.conditions, await fieldTypes(db, name))
    if (Object.keys(filter).length === 0) return
    const found = await collection
      .find(filter, { projection: projectionOf(options.projection), ...timed })
      .limit(MONGODB_MAX_DOCUMENTS + 1)
      .toArray()
    const documents = plainDocuments(found.slice(0, MONGODB_MAX_DOCUMENTS))
    if (documents.length === 0) {
      logger.info(NO_DOCUMENTS)
      return { output: { documents: [], count: 0 } }
    }
    if (found.length > MONGODB_MAX_DOCUMENTS) {
      logger.info(
        `Only the first ${MONGODB_MAX_DOCUMENTS.toLocaleString('en-US')} documents were kept`
      )
    }
    mapRowsToVariables(
      documents,
      options.responseMapping,
      variables,
      logger,
      documents.length === 1 ? 'document' : 'documents'
    )
    return { output: { documents, count: documents.length } }
  }),

  'Create record': action('Insert failed', async (context) => {
    const { options, logger } = context
    const { db, name, collection } = await target(context)
    const document = documentOf(options.fields, await fieldTypes(db, name))
    if (Object.keys(document).length === 0) return
    const inserted = await collection.insertOne(document, timed)
    logger.success('Record added successfully')
    return {
      output: {
        insertedId: inserted.insertedId.toString(),
        document: plainDocuments([document])[0],
      },
    }
  }),

  'Update': action('Update failed', async (context) => {
    const { options, logger } = context
    const { db, name, collection } = await target(context)
    const types = await fieldTypes(db, name)
    const filter = filterOf(options.conditions, types)
    const updates = documentOf(options.updates, types)
    if (Object.keys(filter).length === 0 || Object.keys(updates).length === 0) return
    if ('_id' in updates) throw new Error('The _id of a document cannot be updated')
    // The server runs the collection's validator on every document changed: a value of the
    // wrong type fails the whole update and changes nothing.
    const result = await collection.updateMany(filter, { $set: updates }, timed)
    if (result.matchedCount === 0) logger.info(NO_DOCUMENT)
    else logger.success('Document updated')
    return { output: { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount } }
  }),

  'Delete': action('Delete failed', async (context) => {
    const { options, logger } = context
    const { db, name, collection } = await target(context)
    const filter = filterOf(options.conditions, await fieldTypes(db, name))
    if (Object.keys(filter).length === 0) return
    const result = await collection.deleteMany(filter, timed)
    if (result.deletedCount === 0) logger.info(NO_DOCUMENT)
    else logger.success('Document deleted')
    return { output: { deletedCount: result.deletedCount } }
  }),
}

export default runners
