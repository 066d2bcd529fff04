import type { Runner, RunnerContext } from '#sdk/plugin'
import { mapRowsToVariables, SQL_MAX_MAPPED_ROWS, truncatedRowsMessage } from '#sdk/data'
import type plugin from './index.js'
import {
  collectionIdOf,
  Firestore,
  fromFirestoreFields,
  type FirestoreDocument,
} from './lib/firestore.js'

/**
 * The Firestore actions and their rules: insert and update do nothing without fields, update and delete do
 * nothing without conditions; failures are logged with Firestore's message and the flow
 * goes on.
 */

type Options = Record<string, any>
type Context = RunnerContext<Options, Record<string, unknown>>

const NO_DOCUMENTS = 'No matching documents found in the collection'

/** Key/value entries as a record; entries with an empty key or value are skipped (rows still being typed). */
function recordOf(entries: unknown) {
  const record: Record<string, string> = {}
  for (const entry of Array.isArray(entries) ? entries : []) {
    const key = String(entry?.key ?? '').trim()
    if (key && entry?.value !== undefined && entry.value !== null && entry.value !== '') {
      record[key] = String(entry.value)
    }
  }
  return record
}

async function attempt<T>(context: Context, failure: string, work: () => Promise<T>) {
  try {
    return { ok: true as const, value: await work() }
  } catch (error) {
    context.logger.error(failure, error instanceof Error ? error.message : String(error))
    return { ok: false as const }
  }
}

function firestoreOf(context: Context) {
  return new Firestore(context.credentials, { http: context.http, signal: context.signal })
}

function idOf(document: FirestoreDocument) {
  return document.name.split('/').pop() ?? ''
}

const insertRecord: Runner<typeof plugin, 'Insert record'> = async (raw) => {
  const context = raw as unknown as Context
  const record = recordOf(context.options.fields)
  if (Object.keys(record).length === 0) return
  const done = await attempt(context, 'Insert failed', async () => {
    const collection = collectionIdOf(context.options.collection)
    return firestoreOf(context).insert(collection, record)
  })
  if (!done.ok) return
  context.logger.success('Record added successfully')
  return {
    output: { id: idOf(done.value), record: fromFirestoreFields(done.value.fields) },
  }
}

const findRecords: Runner<typeof plugin, 'Find records'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, variables, logger } = context
  const done = await attempt(context, 'Find failed', async () => {
    const collection = collectionIdOf(options.collection)
    // One more than kept: says whether the list was cut.
    return firestoreOf(context).find(
      collection,
      recordOf(options.conditions),
      SQL_MAX_MAPPED_ROWS + 1
    )
  })
  if (!done.ok) return
  let documents = done.value
  if (documents.length === 0) {
    logger.info(NO_DOCUMENTS)
    return { output: { documents: [], count: 0 } }
  }
  if (documents.length > SQL_MAX_MAPPED_ROWS) {
    documents = documents.slice(0, SQL_MAX_MAPPED_ROWS)
    logger.info(truncatedRowsMessage())
  }
  const records = documents.map((document) => ({
    id: idOf(document),
    ...fromFirestoreFields(document.fields),
  }))
  mapRowsToVariables(
    records,
    options.responseMapping,
    variables,
    logger,
    records.length === 1 ? 'document' : 'documents'
  )
  return { output: { documents: records, count: records.length } }
}

const updateRecords: Runner<typeof plugin, 'Update records'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger } = context
  const record = recordOf(options.fields)
  const conditions = recordOf(options.conditions)
  if (Object.keys(record).length === 0 || Object.keys(conditions).length === 0) return
  const done = await attempt(context, 'Update failed', async () => {
    const collection = collectionIdOf(options.collection)
    const firestore = firestoreOf(context)
    const documents = await firestore.find(collection, conditions, SQL_MAX_MAPPED_ROWS)
    for (const document of documents) await firestore.update(document, record)
    return documents.length
  })
  if (!done.ok) return
  if (done.value === 0) logger.info(NO_DOCUMENTS)
  else logger.success('Record updated successfully')
  return { output: { count: done.value } }
}

const deleteRecords: Runner<typeof plugin, 'Delete records'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger } = context
  const conditions = recordOf(options.conditions)
  if (Object.keys(conditions).length === 0) return
  const done = await attempt(context, 'Delete failed', async () => {
    const collection = collectionIdOf(options.collection)
    const firestore = firestoreOf(context)
    const documents = await firestore.find(collection, conditions, SQL_MAX_MAPPED_ROWS)
    for (const document of documents) await firestore.delete(document)
    return documents.length
  })
  if (!done.ok) return
  if (done.value === 0) logger.info(NO_DOCUMENTS)
  else logger.success('Record deleted successfully')
  return { output: { count: done.value } }
}

export default {
  'Insert record': insertRecord,
  'Find records': findRecords,
  'Update records': updateRecords,
  'Delete records': deleteRecords,
}

/** /api/firebase/{insertRecord|findRecord|updateRecord|deleteRecord}. */
export const apiCalls = {
  insertRecord: 'Insert record',
  findRecord: 'Find records',
  updateRecord: 'Update records',
  deleteRecord: 'Delete records',
} as const
