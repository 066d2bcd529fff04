import { ObjectId, type Document } from 'mongodb'
import { columnsFromDynamicData as columnsFromSample, filledEntries } from '#sdk/data'
import { MONGODB_COLUMN_TYPES } from '../index.js'

/**
 * What the MongoDB runners build from a block's options: checked names, the collection's
 * $jsonSchema validator, values typed after that validator, filters of plain equalities and
 * documents as JSON. A value is always a value: text from a variable is never read as an
 * operator or as JSON, so `{"$ne": null}` typed by a visitor matches only that text.
 */

export type MongoColumnType = (typeof MONGODB_COLUMN_TYPES)[number]

export interface MongoColumn {
  columnName?: string
  type?: string
}

export class MongoNameError extends Error {
  name = 'MongoNameError'
}

const DATABASE = /^[A-Za-z0-9_-]{1,63}$/
const COLLECTION = /^[A-Za-z_][A-Za-z0-9_.-]{0,119}$/

export function databaseName(value: unknown, fallback: string): string {
  const name = (typeof value === 'string' ? value.trim() : '') || fallback
  if (!DATABASE.test(name)) {
    throw new MongoNameError(
      name
        ? `Invalid database name "${name}": letters, digits, "-" and "_"`
        : 'No database: name one in the block or in the connection URL'
    )
  }
  return name
}

export function collectionName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (!COLLECTION.test(name) || name.startsWith('system.') || name.includes('..')) {
    throw new MongoNameError(
      `Invalid collection name "${name}": letters, digits, ".", "-" and "_", starting with a letter or an underscore`
    )
  }
  return name
}

/** Field names may be paths (`address.city`) but never operators (`$where`). */
export function fieldName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (
    !name ||
    name.length > 255 ||
    name.split('.').some((part) => !part || part.startsWith('$')) ||
    name.includes('\0')
  ) {
    throw new MongoNameError(`Invalid field name "${name}": it may not be empty or start with "$"`)
  }
  return name
}

// ---------------------------------------------------------------------------
// Validators
// ---------------------------------------------------------------------------

/** The BSON types a column type accepts (a whole Float is sent as an int by the driver). */
const BSON_TYPES: Record<MongoColumnType, string | string[]> = {
  String: 'string',
  Integer: ['int', 'long'],
  Float: ['double', 'int', 'long', 'decimal'],
  Boolean: 'bool',
  Date: 'date',
}

function columnType(value: unknown): MongoColumnType {
  const text = String(value ?? 'String')
  const found = MONGODB_COLUMN_TYPES.find((type) => type.toLowerCase() === text.toLowerCase())
  if (found) return found
  // The SQL blocks' names, for columns given as JSON by a variable.
  const sql: Record<string, MongoColumnType> = {
    varchar: 'String',
    text: 'String',
    int: 'Integer',
    integer: 'Integer',
    number: 'Float',
    double: 'Float',
    bool: 'Boolean',
  }
  const mapped = sql[text.toLowerCase()]
  if (!mapped)
    throw new MongoNameError(`Unknown field type "${text}": ${MONGODB_COLUMN_TYPES.join(', ')}`)
  return mapped
}

export function cleanColumns(columns: unknown): MongoColumn[] {
  return (Array.isArray(columns) ? columns : []).filter(
    (column) => typeof column?.columnName === 'string' && column.columnName.trim() !== ''
  )
}

/** Columns from a variable: a JSON list of {columnName, type}, or a sample document. */
export function columnsFromDynamicData(value: unknown): MongoColumn[] | null {
  return columnsFromSample(value, {
    integer: 'Integer',
    float: 'Float',
    boolean: 'Boolean',
    text: 'String',
  })
}

/**
 * The collection's validator: every listed field typed; a strict collection also requires
 * each of them and refuses any other field (`_id` aside).
 */
export function validatorOf(
  columns: readonly MongoColumn[],
  strict: boolean
): Document | undefined {
  if (columns.length === 0) return undefined
  const properties: Document = {}
  for (const column of columns) {
    properties[fieldName(column.columnName)] = { bsonType: BSON_TYPES[columnType(column.type)] }
  }
  if (strict) properties._id = { bsonType: 'objectId' }
  return {
    $jsonSchema: {
      bsonType: 'object',
      properties,
      ...(strict
        ? {
            required: Object.keys(properties).filter((name) => name !== '_id'),
            additionalProperties: false,
          }
        : {}),
    },
  }
}

/** What the collection's validator says each field is, so text from variables is typed. */
export function fieldTypesOf(validator: Document | undefined): Map<string, string[]> {
  const types = new Map<string, string[]>()
  const properties = validator?.$jsonSchema?.properties
  if (!properties || typeof properties !== 'object') return types
  for (const [name, rule] of Object.entries(properties as Record<string, Document>)) {
    const bsonType = rule?.bsonType ?? (rule?.type === 'number' ? 'double' : rule?.type)
    if (bsonType) types.set(name, [bsonType].flat().map(String))
  }
  return types
}

/**
 * A value typed for its field: a number for int, long and double fields, true or false for
 * bool fields, a date for date fields, an ObjectId for `_id` written as 24 hex digits. Text
 * that does not fit stays text (the server's validator then says why it refuses it).
 */
export function typedValue(name: string, value: unknown, types: Map<string, string[]>): unknown {
  if (typeof value !== 'string') return value
  if (name === '_id' && /^[0-9a-fA-F]{24}$/.test(value)) return new ObjectId(value)
  const wanted = types.get(name) ?? []
  const text = value.trim()
  if (wanted.some((type) => ['int', 'long'].includes(type)) && /^-?\d+$/.test(text)) {
    const number = Number(text)
    if (Number.isSafeInteger(number)) return number
  }
  if (wanted.some((type) => ['double', 'decimal', 'number'].includes(type)) && text !== '') {
    const number = Number(text)
    if (Number.isFinite(number)) return number
  }
  if (wanted.includes('bool')) {
    if (/^(true|yes|1)$/i.test(text)) return true
    if (/^(false|no|0)$/i.test(text)) return false
  }
  if (wanted.includes('date') && text !== '') {
    const date = new Date(text)
    if (!Number.isNaN(date.getTime())) return date
  }
  return value
}

interface KeyValue {
  key?: string
  value?: string
}

/** Fields of a key/value list as a document; entries with an empty key or value are skipped. */
export function documentOf(entries: readonly KeyValue[] | undefined, types: Map<string, string[]>) {
  const document: Document = {}
  for (const [key, value] of filledEntries(entries)) {
    const name = fieldName(key)
    document[name] = typedValue(name, value, types)
  }
  return document
}

export interface MongoCondition {
  fieldName?: string
  value?: string
}

/** Conditions as a filter of equalities, joined with AND; entries without a field are skipped. */
export function filterOf(
  conditions: readonly MongoCondition[] | undefined,
  types: Map<string, string[]>
) {
  const filter: Document = {}
  for (const condition of Array.isArray(conditions) ? conditions : []) {
    if (!condition?.fieldName?.trim()) continue
    const name = fieldName(condition.fieldName)
    // $eq keeps a value a value even when it is an object (never read as operators).
    filter[name] = { $eq: typedValue(name, condition.value ?? '', types) }
  }
  return filter
}

export interface ProjectionEntry {
  fieldName?: string
  include?: boolean
}

/**
 * The projection: the fields included, or when none is, the fields excluded. MongoDB refuses
 * a mix (but for `_id`), so an excluded field next to included ones is simply left out.
 */
export function projectionOf(
  entries: readonly ProjectionEntry[] | undefined
): Document | undefined {
  const clean = (Array.isArray(entries) ? entries : []).filter((entry) => entry?.fieldName?.trim())
  if (clean.length === 0) return undefined
  const included = clean.filter((entry) => entry.include !== false)
  const projection: Document = {}
  if (included.length > 0) {
    for (const entry of included) projection[fieldName(entry.fieldName)] = 1
    if (clean.some((entry) => entry.include === false && entry.fieldName?.trim() === '_id')) {
      projection._id = 0
    }
  } else {
    for (const entry of clean) projection[fieldName(entry.fieldName)] = 0
  }
  return projection
}

/** A document as JSON values: ids as hex text, dates as ISO text, big numbers as text. */
export function plainValue(value: unknown): unknown {
  if (value instanceof ObjectId) return value.toHexString()
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(plainValue)
  if (value && typeof value === 'object') {
    const typed = (value as any)._bsontype
    if (typed === 'Long' || typed === 'Decimal128') return value.toString()
    if (typed === 'Double' || typed === 'Int32') return Number((value as any).valueOf())
    if (typed) return value.toString()
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainValue(item)]))
  }
  return value
}

export function plainDocuments(documents: readonly Document[]) {
  return documents.map((document) => plainValue(document) as Record<string, unknown>)
}
