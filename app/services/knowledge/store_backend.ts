import Credential from '#models/credential'
import type KnowledgeStore from '#models/knowledge_store'
import { readCredentials } from '#services/credentials'
import { pluginRegistry } from '#services/plugin_registry'
import { createGuardedHttp } from '#plugins/guarded_http'
import type { RunnerAi } from '#plugins/define_plugin'
import type { OpenVectorStore, VectorStoreBackend } from '#sdk/runner'
import {
  LOCAL_BACKEND,
  type BackendCredentialOption,
  type KnowledgeHit,
  type KnowledgeSearchResult,
} from '#shared/knowledge'
import { embedderOf, estimateEmbeddingTokens, storeAiPort } from './embeddings.js'
import { searchStore } from './search.js'
import { credentialEgress } from '#services/egress'

/**
 * Where a store's chunks live (docs/knowledge.md, "Stores kept by a plugin"): this app's
 * database (searchStore, keywords and vectors) or the service of a plugin that offers a
 * vector store backend (the `vectorStore` export of its runner, the SDK's
 * VectorStoreBackend), where each chunk is a record `{sourceId}#{position}` holding its text
 * and its source. Search, indexing and deletion go through here so that the lookup block,
 * the agents' tool and the store page work the same on every backend. The core knows the
 * contract only: which plugins offer one, it asks the registry.
 */

export interface BackendSearchOptions {
  limit: number
  signal?: AbortSignal
  /** Who pays the query's embedding (a block's owner); the store's creator otherwise. */
  ai?: RunnerAi
}

/** A store kept by a plugin that cannot reach its place: the reason, in words. */
export class StoreBackendError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StoreBackendError'
  }
}

/** Whether a store's chunks live in a plugin's service rather than this app's database. */
export const keptByPlugin = (store: Pick<KnowledgeStore, 'backend'>) =>
  store.backend !== LOCAL_BACKEND

/** The plugins that offer a vector store backend: their ids, which are their credential types. */
export async function storeBackendIds(): Promise<string[]> {
  const registry = await pluginRegistry()
  return registry
    .all()
    .filter((plugin) => plugin.vectorStore === true)
    .map((plugin) => plugin.id)
}

/** The backend a plugin offers, and its name for messages; an error when it offers none. */
export async function storeBackendOf(
  id: string
): Promise<{ backend: VectorStoreBackend; name: string }> {
  const registry = await pluginRegistry()
  const plugin = registry.get(id)
  const backend = plugin?.vectorStore
    ? await registry.exportOf<VectorStoreBackend>(plugin.id, 'vectorStore')
    : undefined
  if (!plugin || !backend) throw new StoreBackendError(`No plugin keeps stores as "${id}"`)
  return { backend, name: plugin.name }
}

/** Credentials of the workspace that can hold a store, for the store form. */
export async function backendCredentialsOf(
  workspaceId: string
): Promise<BackendCredentialOption[]> {
  const types = await storeBackendIds()
  if (types.length === 0) return []
  const rows = await Credential.query()
    .where('workspace_id', workspaceId)
    .whereIn('type', types)
    .orderBy('name')
  return rows.map((row) => ({ id: row.id, name: row.name, backend: row.type }))
}

function backendHttp() {
  return createGuardedHttp({ ...credentialEgress(), timeoutMs: 30_000 })
}

/**
 * The account of workspace credentials that can hold a store: the backend of their plugin
 * and the decrypted credentials, or an error saying what is wrong.
 */
export async function backendAccountFor(
  workspaceId: string,
  credentialsId: string | null,
  backendId?: string
) {
  const record = credentialsId ? await Credential.find(credentialsId) : null
  if (!record || record.workspaceId !== workspaceId || (backendId && record.type !== backendId)) {
    throw new StoreBackendError('The credentials of this store were not found')
  }
  const { backend, name } = await storeBackendOf(record.type)
  const credentials = readCredentials(record) as Record<string, unknown>
  return { backend, name, backendId: record.type, credentials, http: backendHttp() }
}

async function openStore(store: KnowledgeStore, signal?: AbortSignal) {
  const account = await backendAccountFor(
    store.workspaceId,
    store.backendCredentialsId,
    store.backend
  )
  const place = await account.backend.open({
    credentials: account.credentials,
    http: account.http,
    signal,
    index: store.indexName,
    namespace: store.backendNamespace ?? '',
  })
  return { ...account, place }
}

/** Record ids of a source: a prefix the services list by, so that a source's records can go. */
const recordPrefix = (sourceId: string) => `${sourceId}#`

/** Where indexing writes the chunks of a store kept by a plugin. */
export interface ChunkSink {
  /** Records per write: the service's limit per request. */
  batchSize: number
  clear(sourceId: string): Promise<void>
  write(source: { id: string; name: string }, start: number, chunks: string[]): Promise<void>
}

/**
 * The sink of a store kept by a plugin: its service embeds the text itself; the passages it
 * embeds are charged as AI credits like any embedding (estimated tokens: upserts report
 * none).
 */
export async function backendSink(
  store: KnowledgeStore,
  signal?: AbortSignal,
  ai: RunnerAi = storeAiPort(store)
): Promise<ChunkSink> {
  const { backend, place } = await openStore(store, signal)
  return {
    batchSize: backend.batchSize,
    clear: (sourceId) => place.deleteByPrefix(recordPrefix(sourceId)),
    async write(source, start, chunks) {
      await ai.ensureCredits()
      await place.upsert(
        chunks.map((text, index) => ({
          id: `${recordPrefix(source.id)}${start + index}`,
          text,
          fields: { source_id: source.id, source_name: source.name, position: start + index },
        }))
      )
      await ai.recordUsage({
        model: backend.embeddingModel,
        inputTokens: estimateEmbeddingTokens(chunks),
        outputTokens: 0,
      })
    },
  }
}

/** Removes the records of sources of a store kept by a plugin (a deleted source or store). */
export async function forgetSources(store: KnowledgeStore, sourceIds: string[]) {
  if (!keptByPlugin(store) || sourceIds.length === 0) return
  const { place } = await openStore(store)
  for (const sourceId of sourceIds) await place.deleteByPrefix(recordPrefix(sourceId))
}

const rounded = (score: number) => Math.round(score * 10_000) / 10_000

async function searchBackend(
  store: KnowledgeStore,
  query: string,
  options: BackendSearchOptions
): Promise<KnowledgeSearchResult> {
  const ai = options.ai ?? storeAiPort(store)
  const { backend, place }: { backend: VectorStoreBackend; place: OpenVectorStore } =
    await openStore(store, options.signal)
  await ai.ensureCredits()
  const found = await place.query({
    text: query.trim(),
    topK: Math.max(1, options.limit),
    fields: ['source_id', 'source_name', 'position'],
  })
  await ai.recordUsage({
    model: backend.embeddingModel,
    inputTokens: found.embeddedTokens ?? estimateEmbeddingTokens([query]),
    outputTokens: 0,
  })
  const hits: KnowledgeHit[] = found.hits.map((hit, rank) => ({
    chunkId: rank + 1,
    sourceId: String(hit.fields.source_id ?? ''),
    sourceName: String(hit.fields.source_name ?? hit.id),
    position: Number(hit.fields.position ?? 0) || 0,
    content: hit.text,
    score: rounded(hit.score),
    keywordScore: null,
    vectorScore: rounded(hit.score),
  }))
  return { mode: 'backend', backend: store.backend, hits }
}

/** Searches a store wherever it lives. */
export async function searchKnowledgeStore(
  store: KnowledgeStore,
  query: string,
  options: BackendSearchOptions
): Promise<KnowledgeSearchResult> {
  if (keptByPlugin(store)) return searchBackend(store, query, options)
  return searchStore(store, query, {
    limit: options.limit,
    signal: options.signal,
    ...(options.ai ? { embedder: await embedderOf(store, options.ai) } : {}),
  })
}
