import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { BSON, Long, ObjectId, type Document } from 'bson'
import {
  type Collection,
  CommandError,
  comparable,
  equal,
  project,
  validate,
  applyUpdate,
  matches,
} from './mongodb_documents.js'

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
