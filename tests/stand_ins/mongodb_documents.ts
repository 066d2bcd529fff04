/*
| The stand-in's documents (tests/stand_ins/mongodb.ts): paths, comparison, filters,
| projections, updates and `$jsonSchema` validation, as a MongoDB server applies them.
*/
import { BSON, Long, ObjectId, type Document } from 'bson'

export interface Collection {
  documents: Document[]
  validator?: Document
  options: Document
}

export class CommandError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly codeName: string
  ) {
    super(message)
  }
}

// ---------------------------------------------------------------------------
// Values, paths, filters
// ---------------------------------------------------------------------------

function valueAt(document: Document, path: string): unknown {
  let current: any = document
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = current[part]
  }
  return current
}

function hasPath(document: Document, path: string) {
  let current: any = document
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || !(part in current)) return false
    current = current[part]
  }
  return true
}

function setAt(document: Document, path: string, value: unknown) {
  const parts = path.split('.')
  let current: any = document
  for (const part of parts.slice(0, -1)) {
    if (current[part] === null || typeof current[part] !== 'object') current[part] = {}
    current = current[part]
  }
  current[parts.at(-1)!] = value
}

function unsetAt(document: Document, path: string) {
  const parts = path.split('.')
  const parent = parts.length > 1 ? valueAt(document, parts.slice(0, -1).join('.')) : document
  if (parent && typeof parent === 'object') delete (parent as any)[parts.at(-1)!]
}

export function comparable(value: unknown): unknown {
  if (value instanceof ObjectId) return value.toHexString()
  if (value instanceof Date) return value.getTime()
  if (value instanceof Long) return value.toNumber()
  if (value && typeof value === 'object' && '_bsontype' in value) {
    const typed = value as any
    if (typeof typed.valueOf === 'function') return typed.valueOf()
  }
  return value
}

export function equal(a: unknown, b: unknown): boolean {
  const left = comparable(a)
  const right = comparable(b)
  if (left !== null && right !== null && typeof left === 'object' && typeof right === 'object') {
    return JSON.stringify(left) === JSON.stringify(right)
  }
  return left === right || (left === undefined && right === null)
}

function compare(a: unknown, b: unknown): number | null {
  const left = comparable(a)
  const right = comparable(b)
  if (typeof left === 'number' && typeof right === 'number') return left - right
  if (typeof left === 'string' && typeof right === 'string')
    return left < right ? -1 : left > right ? 1 : 0
  return null
}

/** Matches the value at a path: arrays match when one element does, as on a server. */
function matchesValue(actual: unknown, test: (value: unknown) => boolean) {
  if (Array.isArray(actual)) return test(actual) || actual.some((item) => test(item))
  return test(actual)
}

function operatorMatches(document: Document, path: string, operator: string, operand: any) {
  const actual = valueAt(document, path)
  switch (operator) {
    case '$eq':
      return matchesValue(actual, (v) => equal(v, operand))
    case '$ne':
      return !matchesValue(actual, (v) => equal(v, operand))
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return matchesValue(actual, (v) => {
        const order = compare(v, operand)
        if (order === null) return false
        return operator === '$gt'
          ? order > 0
          : operator === '$gte'
            ? order >= 0
            : operator === '$lt'
              ? order < 0
              : order <= 0
      })
    case '$in':
      return (operand as unknown[]).some((candidate) =>
        matchesValue(actual, (v) => equal(v, candidate))
      )
    case '$nin':
      return !(operand as unknown[]).some((candidate) =>
        matchesValue(actual, (v) => equal(v, candidate))
      )
    case '$exists':
      return hasPath(document, path) === Boolean(operand)
    case '$regex': {
      const pattern = operand instanceof RegExp ? operand : new RegExp(String(operand))
      return matchesValue(actual, (v) => typeof v === 'string' && pattern.test(v))
    }
    case '$options':
      return true
    default:
      throw new CommandError(`unknown operator: ${operator}`, 2, 'BadValue')
  }
}

export function matches(document: Document, filter: Document | undefined): boolean {
  for (const [key, condition] of Object.entries(filter ?? {})) {
    if (key === '$and') {
      if (!(condition as Document[]).every((part) => matches(document, part))) return false
    } else if (key === '$or') {
      if (!(condition as Document[]).some((part) => matches(document, part))) return false
    } else if (key === '$nor') {
      if ((condition as Document[]).some((part) => matches(document, part))) return false
    } else if (key.startsWith('$')) {
      throw new CommandError(`unknown top level operator: ${key}`, 2, 'BadValue')
    } else if (
      condition !== null &&
      typeof condition === 'object' &&
      !(condition instanceof ObjectId) &&
      !(condition instanceof Date) &&
      !(condition instanceof RegExp) &&
      !Array.isArray(condition) &&
      Object.keys(condition).length > 0 &&
      Object.keys(condition).every((name) => name.startsWith('$'))
    ) {
      const regexOptions = typeof condition.$options === 'string' ? condition.$options : ''
      for (const [operator, operand] of Object.entries(condition)) {
        const value =
          operator === '$regex' && !(operand instanceof RegExp)
            ? new RegExp(String(operand), regexOptions)
            : operand
        if (!operatorMatches(document, key, operator, value)) return false
      }
    } else if (condition instanceof RegExp) {
      if (!operatorMatches(document, key, '$regex', condition)) return false
    } else if (!operatorMatches(document, key, '$eq', condition)) {
      return false
    }
  }
  return true
}

export function project(document: Document, projection: Document | undefined): Document {
  const entries = Object.entries(projection ?? {})
  if (entries.length === 0) return document
  const includes = entries.filter(([name, flag]) => name !== '_id' && Boolean(flag))
  const idFlag = projection?._id
  if (includes.length > 0) {
    const kept: Document = {}
    if (idFlag === undefined || idFlag) {
      if ('_id' in document) kept._id = document._id
    }
    for (const [name] of includes)
      if (hasPath(document, name)) setAt(kept, name, valueAt(document, name))
    return kept
  }
  const copy = structuredCloneDocument(document)
  for (const [name, flag] of entries) if (!flag) unsetAt(copy, name)
  return copy
}

function structuredCloneDocument(document: Document): Document {
  return BSON.deserialize(BSON.serialize(document))
}

// ---------------------------------------------------------------------------
// $jsonSchema validators
// ---------------------------------------------------------------------------

function bsonTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double'
  if (value instanceof Date) return 'date'
  if (value instanceof ObjectId) return 'objectId'
  if (Array.isArray(value)) return 'array'
  const typed = (value as any)?._bsontype
  if (typed === 'Long') return 'long'
  if (typed === 'Double') return 'double'
  if (typed === 'Int32') return 'int'
  if (typed === 'Decimal128') return 'decimal'
  return 'object'
}

function typeAllowed(value: unknown, wanted: string | string[]) {
  const actual = bsonTypeOf(value)
  const list = Array.isArray(wanted) ? wanted : [wanted]
  return list.some(
    (type) =>
      type === actual ||
      (type === 'number' && ['int', 'long', 'double', 'decimal'].includes(actual)) ||
      // A whole double (1.0) is sent as an int by the driver; a server keeps it a double.
      (type === 'double' && actual === 'int')
  )
}

/** Why the document breaks the schema, or null when it passes. */
function schemaViolation(document: Document, schema: Document): string | null {
  for (const name of (schema.required as string[] | undefined) ?? []) {
    if (!(name in document)) return `missing required property "${name}"`
  }
  const properties = (schema.properties ?? {}) as Record<string, Document>
  for (const [name, rule] of Object.entries(properties)) {
    if (!(name in document)) continue
    if (rule.bsonType && !typeAllowed(document[name], rule.bsonType)) {
      return `property "${name}" must be of type ${[rule.bsonType].flat().join(' or ')}, got ${bsonTypeOf(document[name])}`
    }
  }
  if (schema.additionalProperties === false) {
    const extra = Object.keys(document).find((name) => !(name in properties))
    if (extra) return `additional property "${extra}" is not allowed`
  }
  return null
}

export function validate(collection: Collection, document: Document) {
  const schema = collection.validator?.$jsonSchema as Document | undefined
  if (!schema || collection.options.validationAction === 'warn') return
  const violation = schemaViolation(document, schema)
  if (violation) {
    throw new CommandError(
      `Document failed validation: ${violation}`,
      121,
      'DocumentValidationFailure'
    )
  }
}

// ---------------------------------------------------------------------------
// Updates
// ---------------------------------------------------------------------------

export function applyUpdate(document: Document, update: Document): Document {
  const operators = Object.keys(update)
  if (operators.length > 0 && operators.every((name) => !name.startsWith('$'))) {
    return { _id: document._id, ...update }
  }
  const next = structuredCloneDocument(document)
  for (const [operator, changes] of Object.entries(update)) {
    for (const [path, value] of Object.entries(changes as Document)) {
      if (path === '_id') {
        throw new CommandError(
          "Performing an update on the path '_id' would modify the immutable field '_id'",
          66,
          'ImmutableField'
        )
      }
      switch (operator) {
        case '$set':
          setAt(next, path, value)
          break
        case '$unset':
          unsetAt(next, path)
          break
        case '$inc':
          setAt(next, path, Number(valueAt(next, path) ?? 0) + Number(value))
          break
        default:
          throw new CommandError(`Unknown modifier: ${operator}`, 9, 'FailedToParse')
      }
    }
  }
  return next
}

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------
