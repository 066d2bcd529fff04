import {
  callGoogleAsService,
  googleUrl,
  parseServiceAccount,
  type GoogleIo,
  type GoogleRequest,
  type ServiceAccount,
} from '#sdk/google'
import { FIRESTORE_DEFAULT_BASE_URL, FIRESTORE_SCOPE } from '../index.js'

/**
 * Cloud Firestore's REST API v1 as the plugin uses it (server only): values typed the way
 * Firestore stores them, documents found with a structured query of equality filters.
 */

export type FirestoreValue = Record<string, any>

/**
 * A value typed from the text a block holds: whole numbers, decimals, true/false and null
 * become Firestore's types; numbers with leading zeros (phone numbers, zip codes) stay text.
 */
export function toFirestoreValue(value: unknown): FirestoreValue {
  if (value === null || value === undefined) return { nullValue: null }
  if (typeof value === 'boolean') return { booleanValue: value }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { integerValue: String(value) } : { doubleValue: value }
  }
  if (Array.isArray(value)) return { arrayValue: { values: value.map(toFirestoreValue) } }
  if (typeof value === 'object') {
    return {
      mapValue: {
        fields: Object.fromEntries(
          Object.entries(value).map(([key, inner]) => [key, toFirestoreValue(inner)])
        ),
      },
    }
  }
  const text = String(value)
  if (/^-?(0|[1-9]\d{0,15})$/.test(text)) return { integerValue: text }
  if (/^-?(0|[1-9]\d*)\.\d+$/.test(text)) return { doubleValue: Number(text) }
  if (text === 'true' || text === 'false') return { booleanValue: text === 'true' }
  if (text === 'null') return { nullValue: null }
  return { stringValue: text }
}

export function fromFirestoreValue(value: FirestoreValue | undefined): unknown {
  if (!value || typeof value !== 'object') return null
  if ('stringValue' in value) return value.stringValue
  if ('integerValue' in value) return Number(value.integerValue)
  if ('doubleValue' in value) return Number(value.doubleValue)
  if ('booleanValue' in value) return value.booleanValue
  if ('nullValue' in value) return null
  if ('timestampValue' in value) return value.timestampValue
  if ('referenceValue' in value) return value.referenceValue
  if ('bytesValue' in value) return value.bytesValue
  if ('geoPointValue' in value) return value.geoPointValue
  if ('arrayValue' in value) return (value.arrayValue?.values ?? []).map(fromFirestoreValue)
  if ('mapValue' in value) return fromFirestoreFields(value.mapValue?.fields)
  return null
}

export function fromFirestoreFields(fields: Record<string, FirestoreValue> | undefined) {
  return Object.fromEntries(
    Object.entries(fields ?? {}).map(([key, value]) => [key, fromFirestoreValue(value)])
  )
}

/** A field path: plain names as they are, others between backticks (Firestore's quoting). */
export function fieldPath(name: string) {
  return /^[A-Za-z_][A-Za-z_0-9]*$/.test(name)
    ? name
    : `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``
}

export function collectionIdOf(value: unknown) {
  const id = String(value ?? '').trim()
  if (!id) throw new Error('The collection is empty')
  if (id.includes('/') || id === '.' || id === '..' || /^__.*__$/.test(id)) {
    throw new Error(`"${id}" is not a collection ID`)
  }
  return id
}

export interface FirestoreDocument {
  name: string
  fields?: Record<string, FirestoreValue>
}

export class Firestore {
  readonly account: ServiceAccount
  readonly base: string

  constructor(
    credentials: Record<string, unknown>,
    readonly io: GoogleIo
  ) {
    this.account = parseServiceAccount(credentials.serviceJson)
    this.base = String(credentials.baseUrl ?? '').trim() || FIRESTORE_DEFAULT_BASE_URL
  }

  get root() {
    return `projects/${encodeURIComponent(this.account.projectId)}/databases/(default)/documents`
  }

  call<T>(path: string, request: GoogleRequest = {}) {
    return callGoogleAsService<T>(
      this.account,
      [FIRESTORE_SCOPE],
      'Firestore',
      googleUrl(this.base, `/v1/${path}`, request.query),
      request,
      this.io
    )
  }

  insert(collection: string, record: Record<string, unknown>) {
    return this.call<FirestoreDocument>(`${this.root}/${encodeURIComponent(collection)}`, {
      method: 'POST',
      body: {
        fields: Object.fromEntries(
          Object.entries(record).map(([key, value]) => [key, toFirestoreValue(value)])
        ),
      },
    })
  }

  /** The documents whose fields equal every condition (all of them without conditions). */
  async find(collection: string, conditions: Record<string, string>, limit: number) {
    const filters = Object.entries(conditions).map(([name, value]) => ({
      fieldFilter: {
        field: { fieldPath: fieldPath(name) },
        op: 'EQUAL',
        value: toFirestoreValue(value),
      },
    }))
    const where =
      filters.length === 0
        ? undefined
        : filters.length === 1
          ? filters[0]
          : { compositeFilter: { op: 'AND', filters } }
    const answer = await this.call<{ document?: FirestoreDocument }[]>(`${this.root}:runQuery`, {
      method: 'POST',
      body: { structuredQuery: { from: [{ collectionId: collection }], where, limit } },
    })
    return (Array.isArray(answer) ? answer : [])
      .map((entry) => entry.document)
      .filter((document): document is FirestoreDocument => Boolean(document?.name))
  }

  /** Sets the given fields of one document (others are kept). */
  update(document: FirestoreDocument, record: Record<string, unknown>) {
    const query = new URLSearchParams()
    for (const name of Object.keys(record)) query.append('updateMask.fieldPaths', fieldPath(name))
    query.set('currentDocument.exists', 'true')
    return this.call<FirestoreDocument>(`${document.name}?${query}`, {
      method: 'PATCH',
      body: {
        fields: Object.fromEntries(
          Object.entries(record).map(([key, value]) => [key, toFirestoreValue(value)])
        ),
      },
    })
  }

  delete(document: FirestoreDocument) {
    return this.call(document.name, { method: 'DELETE' })
  }
}
