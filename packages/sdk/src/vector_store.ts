import type { HttpClient } from './define_plugin.js'

/**
 * A vector store backend: a service outside the app where a knowledge store's chunks can
 * live instead of this app's database (docs/knowledge.md, "Stores kept by a plugin"). A
 * plugin offers one by declaring `vectorStore: true` in its manifest and exporting
 * `vectorStore` (this interface) from its runner.ts. The account is the plugin's own
 * credentials; the core picks the credentials, an index and a namespace, writes the chunks
 * as records, searches them and deletes a source's records by their id prefix.
 */

/** An account of the service: the plugin's credentials, and the app's guarded HTTP client. */
export interface VectorStoreAccount {
  credentials: Record<string, unknown>
  http: HttpClient
  signal?: AbortSignal
}

/** An index of the account, as the store form lists them. */
export interface VectorStoreIndex {
  name: string
  /** Whether the service embeds the text itself: only those indexes can hold a store. */
  integrated: boolean
  /** The model that embeds the text (null when the index does not embed text). */
  model: string | null
}

/** Where a store's records live: an index of the account and a namespace of it. */
export interface VectorStorePlace extends VectorStoreAccount {
  index: string
  /** Empty means the index's default namespace. */
  namespace: string
}

/** One chunk, written as a record: its text and flat fields kept with it. */
export interface VectorStoreRecord {
  id: string
  text: string
  fields: Record<string, string | number>
}

/** A record found by a search: its score (1 is identical), its text and its fields. */
export interface VectorStoreHit {
  id: string
  score: number
  text: string
  fields: Record<string, unknown>
}

/** A store's place, opened: found once (an index's host), then written and searched. */
export interface OpenVectorStore {
  upsert(records: VectorStoreRecord[]): Promise<void>
  /** The records nearest to the text; `embeddedTokens` when the service reports them. */
  query(input: {
    text: string
    topK: number
    fields: string[]
  }): Promise<{ hits: VectorStoreHit[]; embeddedTokens?: number }>
  /** Deletes every record whose id starts with the prefix (a source's records). */
  deleteByPrefix(prefix: string): Promise<void>
}

export interface VectorStoreBackend {
  /** The model the service embeds with, named in the AI credits a store's texts cost. */
  embeddingModel: string
  /** Records per upsert: the service's limit per request. */
  batchSize: number
  /** The indexes of the account (the store form's picker; a new store's check). */
  indexes(account: VectorStoreAccount): Promise<VectorStoreIndex[]>
  /** Opens a place; throws with the service's reason when it cannot be reached. */
  open(place: VectorStorePlace): Promise<OpenVectorStore>
}
