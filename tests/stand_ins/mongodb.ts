import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { BSON, Long, ObjectId, type Document } from 'bson'

/**
 * A MongoDB server as the official driver sees it, for tests (no MongoDB installs here):
 * the wire protocol (the OP_QUERY handshake answered with OP_REPLY, then OP_MSG with
 * document sequences), BSON through the `bson` package, and an in-memory store that really
 * filters, projects, updates and checks `$jsonSchema` validators, as a server does.
 * It answers the commands the driver sends for the Data plugins: hello/isMaster, ping,
 * buildInfo, create, listCollections, drop, insert, find, getMore, killCursors, update,
 * delete, endSessions. Anything else gets "no such command" (code 59), as a server does.
 */

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013

interface Collection {
  documents: Document[]
  validator?: Document
  options: Document
}

interface OpenCursor {
  ns: string
  remaining: Document[]
}

export interface MongoStandIn {
  /** mongodb://127.0.0.1:{port}/ */
  url: string
  port: number
  /** database name → collection name → collection */
  databases: Map<string, Map<string, Collection>>
  /** Every command received (name and database), handshakes included. */
  commands: { name: string; db: string; body: Document }[]
  /** TCP connections accepted since start. */
  connections(): number
  close(): Promise<void>
}

class CommandError extends Error {
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

function comparable(value: unknown): unknown {
  if (value instanceof ObjectId) return value.toHexString()
  if (value instanceof Date) return value.getTime()
  if (value instanceof Long) return value.toNumber()
  if (value && typeof value === 'object' && '_bsontype' in value) {
    const typed = value as any
    if (typeof typed.valueOf === 'function') return typed.valueOf()
  }
  return value
}

function equal(a: unknown, b: unknown): boolean {
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

function project(document: Document, projection: Document | undefined): Document {
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

function validate(collection: Collection, document: Document) {
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

function applyUpdate(document: Document, update: Document): Document {
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

export async function startMongoStandIn(options: { port?: number } = {}): Promise<MongoStandIn> {
  const databases = new Map<string, Map<string, Collection>>()
  const commands: MongoStandIn['commands'] = []
  const cursors = new Map<string, OpenCursor>()
  const sockets = new Set<Socket>()
  let accepted = 0
  let nextCursor = 1
  let nextRequest = 1

  const database = (name: string) => {
    let found = databases.get(name)
    if (!found) databases.set(name, (found = new Map()))
    return found
  }
  const collectionOf = (db: string, name: string, create: boolean) => {
    const collections = database(db)
    let found = collections.get(name)
    if (!found && create) collections.set(name, (found = { documents: [], options: {} }))
    return found
  }

  function hello(connectionId: number): Document {
    return {
      isWritablePrimary: true,
      ismaster: true,
      helloOk: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
      ok: 1,
    }
  }

  function batch(ns: string, documents: Document[], size: number | undefined, first: boolean) {
    const limit = size && size > 0 ? size : 101
    const taken = documents.slice(0, limit)
    const rest = documents.slice(limit)
    let id = 0
    if (rest.length > 0) {
      id = nextCursor++
      cursors.set(String(id), { ns, remaining: rest })
    }
    return {
      cursor: { [first ? 'firstBatch' : 'nextBatch']: taken, id: Long.fromNumber(id), ns },
      ok: 1,
    }
  }

  function run(body: Document, connectionId: number): Document {
    const name = Object.keys(body)[0]
    const db = String(body.$db ?? 'admin')
    commands.push({ name, db, body })
    switch (name) {
      case 'hello':
      case 'isMaster':
      case 'ismaster':
        return hello(connectionId)
      case 'ping':
      case 'endSessions':
        return { ok: 1 }
      case 'buildInfo':
      case 'buildinfo':
        return { version: '7.0.0', versionArray: [7, 0, 0, 0], ok: 1 }
      case 'create': {
        const collection = String(body.create)
        if (database(db).has(collection)) {
          throw new CommandError(
            `Collection ${db}.${collection} already exists.`,
            48,
            'NamespaceExists'
          )
        }
        const made = collectionOf(db, collection, true)!
        made.validator = body.validator
        made.options = {
          validationLevel: body.validationLevel ?? 'strict',
          validationAction: body.validationAction ?? 'error',
        }
        return { ok: 1 }
      }
      case 'drop': {
        database(db).delete(String(body.drop))
        return { ok: 1 }
      }
      case 'listCollections': {
        const all = [...database(db).entries()].map(([collection, value]) => ({
          name: collection,
          type: 'collection',
          options: value.validator ? { validator: value.validator, ...value.options } : {},
          info: { readOnly: false },
        }))
        const filtered = all.filter((entry) => matches(entry, body.filter))
        return batch(`${db}.$cmd.listCollections`, filtered, body.cursor?.batchSize, true)
      }
      case 'insert': {
        const collection = collectionOf(db, String(body.insert), true)!
        const writeErrors: Document[] = []
        let inserted = 0
        for (const [index, document] of (body.documents as Document[]).entries()) {
          try {
            const stored = { _id: document._id ?? new ObjectId(), ...document }
            if (collection.documents.some((existing) => equal(existing._id, stored._id))) {
              throw new CommandError(
                `E11000 duplicate key error collection: ${db}.${body.insert} index: _id_`,
                11000,
                'DuplicateKey'
              )
            }
            validate(collection, stored)
            collection.documents.push(stored)
            inserted += 1
          } catch (error) {
            if (!(error instanceof CommandError)) throw error
            writeErrors.push({ index, code: error.code, errmsg: error.message })
            if (body.ordered !== false) break
          }
        }
        return { n: inserted, ...(writeErrors.length ? { writeErrors } : {}), ok: 1 }
      }
      case 'find': {
        const collection = collectionOf(db, String(body.find), false)
        let found = (collection?.documents ?? []).filter((document) =>
          matches(document, body.filter)
        )
        if (body.skip) found = found.slice(Number(body.skip))
        if (body.limit) found = found.slice(0, Math.abs(Number(body.limit)))
        const projected = found.map((document) => project(document, body.projection))
        return batch(`${db}.${body.find}`, projected, body.batchSize, true)
      }
      case 'getMore': {
        const id = String(comparable(body.getMore))
        const cursor = cursors.get(id)
        if (!cursor) throw new CommandError(`cursor id ${id} not found`, 43, 'CursorNotFound')
        cursors.delete(id)
        return batch(cursor.ns, cursor.remaining, body.batchSize, false)
      }
      case 'killCursors': {
        const killed = ((body.cursors as unknown[]) ?? []).map((id) => comparable(id))
        for (const id of killed) cursors.delete(String(id))
        return { cursorsKilled: body.cursors ?? [], cursorsNotFound: [], cursorsAlive: [], ok: 1 }
      }
      case 'update': {
        const collection = collectionOf(db, String(body.update), true)!
        let matched = 0
        let modified = 0
        const writeErrors: Document[] = []
        for (const [index, statement] of (body.updates as Document[]).entries()) {
          try {
            const targets = collection.documents.filter((document) =>
              matches(document, statement.q)
            )
            const chosen = statement.multi ? targets : targets.slice(0, 1)
            // Every document is checked before any is written, so a refused update changes none.
            const next = chosen.map((document) => applyUpdate(document, statement.u))
            for (const document of next) validate(collection, document)
            for (const [i, document] of chosen.entries()) {
              const position = collection.documents.indexOf(document)
              if (
                JSON.stringify(BSON.serialize(next[i])) !== JSON.stringify(BSON.serialize(document))
              ) {
                modified += 1
              }
              collection.documents[position] = next[i]
            }
            matched += chosen.length
          } catch (error) {
            if (!(error instanceof CommandError)) throw error
            writeErrors.push({ index, code: error.code, errmsg: error.message })
            if (body.ordered !== false) break
          }
        }
        return {
          n: matched,
          nModified: modified,
          ...(writeErrors.length ? { writeErrors } : {}),
          ok: 1,
        }
      }
      case 'delete': {
        const collection = collectionOf(db, String(body.delete), false)
        let removed = 0
        for (const statement of body.deletes as Document[]) {
          if (!collection) break
          const targets = collection.documents.filter((document) => matches(document, statement.q))
          const chosen = Number(statement.limit) === 1 ? targets.slice(0, 1) : targets
          collection.documents = collection.documents.filter(
            (document) => !chosen.includes(document)
          )
          removed += chosen.length
        }
        return { n: removed, ok: 1 }
      }
      default:
        throw new CommandError(`no such command: '${name}'`, 59, 'CommandNotFound')
    }
  }

  function answer(body: Document, connectionId: number): Document {
    try {
      return run(body, connectionId)
    } catch (error) {
      if (error instanceof CommandError) {
        return { ok: 0, errmsg: error.message, code: error.code, codeName: error.codeName }
      }
      return {
        ok: 0,
        errmsg: String((error as Error)?.message ?? error),
        code: 1,
        codeName: 'InternalError',
      }
    }
  }

  function header(length: number, responseTo: number, opCode: number) {
    const head = Buffer.alloc(16)
    head.writeInt32LE(length, 0)
    head.writeInt32LE(nextRequest++, 4)
    head.writeInt32LE(responseTo, 8)
    head.writeInt32LE(opCode, 12)
    return head
  }

  function opMsgReply(requestId: number, document: Document) {
    const payload = Buffer.from(BSON.serialize(document))
    const body = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), payload])
    return Buffer.concat([header(16 + body.length, requestId, OP_MSG), body])
  }

  function opReply(requestId: number, document: Document) {
    const payload = Buffer.from(BSON.serialize(document))
    const fixed = Buffer.alloc(20)
    fixed.writeInt32LE(0, 0) // responseFlags
    fixed.writeBigInt64LE(0n, 4) // cursorID
    fixed.writeInt32LE(0, 12) // startingFrom
    fixed.writeInt32LE(1, 16) // numberReturned
    return Buffer.concat([
      header(16 + fixed.length + payload.length, requestId, OP_REPLY),
      fixed,
      payload,
    ])
  }

  /** An OP_MSG's command: its body section with each document sequence added as a field. */
  function readOpMsg(message: Buffer): Document {
    const flags = message.readUInt32LE(16)
    const end = message.length - (flags & 1 ? 4 : 0)
    let offset = 20
    let body: Document = {}
    const sequences: Record<string, Document[]> = {}
    while (offset < end) {
      const kind = message[offset]
      offset += 1
      if (kind === 0) {
        const size = message.readInt32LE(offset)
        body = BSON.deserialize(message.subarray(offset, offset + size))
        offset += size
      } else {
        const size = message.readInt32LE(offset)
        const sectionEnd = offset + size
        let cursor = offset + 4
        const nameEnd = message.indexOf(0, cursor)
        const identifier = message.toString('utf8', cursor, nameEnd)
        cursor = nameEnd + 1
        const documents: Document[] = []
        while (cursor < sectionEnd) {
          const documentSize = message.readInt32LE(cursor)
          documents.push(BSON.deserialize(message.subarray(cursor, cursor + documentSize)))
          cursor += documentSize
        }
        sequences[identifier] = documents
        offset = sectionEnd
      }
    }
    return { ...body, ...sequences }
  }

  /** The legacy handshake: OP_QUERY on admin.$cmd. */
  function readOpQuery(message: Buffer): Document {
    let offset = 20
    const nameEnd = message.indexOf(0, offset)
    const collection = message.toString('utf8', offset, nameEnd)
    offset = nameEnd + 1 + 8
    const size = message.readInt32LE(offset)
    const query = BSON.deserialize(message.subarray(offset, offset + size))
    return { ...query, $db: collection.split('.')[0] }
  }

  const server: Server = createServer((socket) => {
    accepted += 1
    const connectionId = accepted
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let pending = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 16) {
        const length = pending.readInt32LE(0)
        if (pending.length < length) break
        const message = pending.subarray(0, length)
        pending = pending.subarray(length)
        const requestId = message.readInt32LE(4)
        const opCode = message.readInt32LE(12)
        if (opCode === OP_QUERY) {
          socket.write(opReply(requestId, answer(readOpQuery(message), connectionId)))
        } else if (opCode === OP_MSG) {
          const flags = message.readUInt32LE(16)
          const reply = answer(readOpMsg(message), connectionId)
          // moreToCome (bit 1): the client expects no answer (unacknowledged writes).
          if (!(flags & 2)) socket.write(opMsgReply(requestId, reply))
        } else {
          socket.destroy()
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    port,
    databases,
    commands,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
