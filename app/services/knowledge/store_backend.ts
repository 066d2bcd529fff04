import Credential from '#models/credential'
import type KnowledgeStore from '#models/knowledge_store'
import { readCredentials } from '#services/credentials'
import { createGuardedHttp } from '#plugins/guarded_http'
import type { HttpClient, RunnerAi } from '#plugins/define_plugin'
import {
  CHUNK_TEXT_FIELD,
  PINECONE_CREDENTIAL_TYPE,
  PINECONE_EMBED_MODEL,
  deleteRecords,
  indexHost,
  listRecordIds,
  pineconeAccountOf,
  searchRecords,
  upsertRecords,
  type PineconeAccount,
} from '#services/pinecone'
import type { KnowledgeHit, KnowledgeSearchResult } from '#shared/knowledge'
import { embedderOf, estimateEmbeddingTokens, storeAiPort } from './embeddings.js'
import { searchStore } from './search.js'
import { credentialEgress } from '#services/egress'

/**
 * Where a store's chunks live (docs/knowledge.md, "Stores in Pinecone"): this app's
 * database (searchStore, keywords and vectors) or a Pinecone index with integrated
 * embedding, where each chunk is a record `{sourceId}#{position}` holding `chunk_text` and
 * its source. Search, indexing and deletion go through here so that the lookup block, the
 * agents' tool and the store page work the same on both.
 */

export interface BackendSearchOptions {
  limit: number
  signal?: AbortSignal
  /** Who pays the query's embedding (a block's owner); the store's creator otherwise. */
  ai?: RunnerAi
}

/** A Pinecone store that cannot reach its index: the reason, in words. */
export class PineconeStoreError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PineconeStoreError'
  }
}

interface PineconeTarget {
  http: HttpClient
  account: PineconeAccount
  host: string
  namespace: string
}

function pineconeHttp() {
  return createGuardedHttp({ ...credentialEgress(), timeoutMs: 30_000 })
}

/** The Pinecone account of workspace credentials, or an error saying what is wrong. */
export async function pineconeAccountFor(workspaceId: string, credentialsId: string | null) {
  const record = credentialsId ? await Credential.find(credentialsId) : null
  if (!record || record.workspaceId !== workspaceId || record.type !== PINECONE_CREDENTIAL_TYPE) {
    throw new PineconeStoreError('The Pinecone credentials of this store were not found')
  }
  return pineconeAccountOf(readCredentials(record) as Record<string, unknown>)
}

async function pineconeTarget(
  store: KnowledgeStore,
  signal?: AbortSignal
): Promise<PineconeTarget> {
  const account = await pineconeAccountFor(store.workspaceId, store.pineconeCredentialsId)
  const http = pineconeHttp()
  const host = await indexHost(http, account, store.indexName, signal)
  return { http, account, host, namespace: store.pineconeNamespace ?? '' }
}

/** Record ids of a source: a prefix Pinecone lists by, so that a source's records can go. */
const recordPrefix = (sourceId: string) => `${sourceId}#`

async function deleteSourceRecords(target: PineconeTarget, sourceId: string, signal?: AbortSignal) {
  const ids = await listRecordIds(
    target.http,
    target.account,
    { host: target.host, namespace: target.namespace, prefix: recordPrefix(sourceId) },
    signal
  )
  if (ids.length === 0) return
  await deleteRecords(
    target.http,
    target.account,
    { host: target.host, namespace: target.namespace, ids },
    signal
  )
}

/** Where indexing writes a Pinecone store's chunks. */
export interface ChunkSink {
  clear(sourceId: string): Promise<void>
  write(source: { id: string; name: string }, start: number, chunks: string[]): Promise<void>
}

/**
 * The sink of a Pinecone store: Pinecone embeds `chunk_text` itself (integrated index);
 * the passages it embeds are charged as AI credits like any embedding (estimated tokens:
 * upserts report none).
 */
export async function pineconeSink(
  store: KnowledgeStore,
  signal?: AbortSignal,
  ai: RunnerAi = storeAiPort(store)
): Promise<ChunkSink> {
  const target = await pineconeTarget(store, signal)
  return {
    clear: (sourceId) => deleteSourceRecords(target, sourceId, signal),
    async write(source, start, chunks) {
      await ai.ensureCredits()
      await upsertRecords(
        target.http,
        target.account,
        {
          host: target.host,
          namespace: target.namespace,
          records: chunks.map((text, index) => ({
            id: `${recordPrefix(source.id)}${start + index}`,
            [CHUNK_TEXT_FIELD]: text,
            source_id: source.id,
            source_name: source.name,
            position: start + index,
          })),
        },
        signal
      )
      await ai.recordUsage({
        model: PINECONE_EMBED_MODEL,
        inputTokens: estimateEmbeddingTokens(chunks),
        outputTokens: 0,
      })
    },
  }
}

/** Removes the records of sources of a Pinecone store (a deleted source or store). */
export async function forgetSources(store: KnowledgeStore, sourceIds: string[]) {
  if (store.backend !== 'pinecone' || sourceIds.length === 0) return
  const target = await pineconeTarget(store)
  for (const sourceId of sourceIds) await deleteSourceRecords(target, sourceId)
}

async function searchPinecone(
  store: KnowledgeStore,
  query: string,
  options: BackendSearchOptions
): Promise<KnowledgeSearchResult> {
  const ai = options.ai ?? storeAiPort(store)
  const target = await pineconeTarget(store, options.signal)
  await ai.ensureCredits()
  let embedded: number | undefined
  const found = await searchRecords(
    target.http,
    target.account,
    {
      host: target.host,
      namespace: target.namespace,
      text: query.trim(),
      topK: Math.max(1, options.limit),
      fields: [CHUNK_TEXT_FIELD, 'source_id', 'source_name', 'position'],
      onUsage: (tokens) => (embedded = tokens),
    },
    options.signal
  )
  await ai.recordUsage({
    model: PINECONE_EMBED_MODEL,
    inputTokens: embedded ?? estimateEmbeddingTokens([query]),
    outputTokens: 0,
  })
  const hits: KnowledgeHit[] = found.map((hit, rank) => ({
    chunkId: rank + 1,
    sourceId: String(hit.fields.source_id ?? ''),
    sourceName: String(hit.fields.source_name ?? hit.id),
    position: Number(hit.fields.position ?? 0) || 0,
    content: String(hit.fields[CHUNK_TEXT_FIELD] ?? ''),
    score: Math.round(hit.score * 10_000) / 10_000,
    keywordScore: null,
    vectorScore: Math.round(hit.score * 10_000) / 10_000,
  }))
  return { mode: 'pinecone', hits }
}

/** Searches a store wherever it lives. */
export async function searchKnowledgeStore(
  store: KnowledgeStore,
  query: string,
  options: BackendSearchOptions
): Promise<KnowledgeSearchResult> {
  if (store.backend === 'pinecone') return searchPinecone(store, query, options)
  return searchStore(store, query, {
    limit: options.limit,
    signal: options.signal,
    ...(options.ai ? { embedder: await embedderOf(store, options.ai) } : {}),
  })
}
