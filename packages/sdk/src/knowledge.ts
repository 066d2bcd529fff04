import type { RunnerAi } from './runner_types.js'
import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/knowledge` (server; `#sdk/knowledge` in the app): the knowledge stores of
 * the block's workspace, for plugins (the vector store lookup, agents' "search knowledge"
 * tool). The stores are the app's (its database, its vector backends): searching one asks the
 * app through the port; a store of another workspace is "not found". docs/knowledge.md.
 */

export { KNOWLEDGE_TOOL_NAME, knowledgeStoresOf, knowledgeAgentTool } from './ai/knowledge.js'

/** How many passages a vector lookup returns unless the builder says otherwise. */
export const DEFAULT_DOCUMENT_COUNT = 2
export const MAX_DOCUMENT_COUNT = 50

export interface KnowledgeHit {
  chunkId: number
  sourceId: string
  sourceName: string
  position: number
  content: string
  /** Higher is better; the fused rank score in hybrid search. */
  score: number
  keywordScore: number | null
  vectorScore: number | null
}

export interface KnowledgeSearchResult {
  /** `backend`: a store kept by a plugin's service, which embeds the query itself. */
  mode: 'keyword' | 'hybrid' | 'backend'
  /** With mode `backend`: the plugin whose service searched. */
  backend?: string
  hits: KnowledgeHit[]
  /** Why a hybrid search fell back to keywords (an embedding error), if it did. */
  warning?: string
}

export type KnowledgeLookup =
  | ({ ok: true; storeName: string } & KnowledgeSearchResult)
  | { ok: false; reason: 'not-found' | 'empty-query' }
  /** The store's service failed (a Pinecone store's index unreachable, its key refused). */
  | { ok: false; reason: 'unavailable'; message: string }

export interface KnowledgeSearchInput {
  workspaceId: string
  storeId: string
  query: string
  limit?: number
  signal?: AbortSignal
  /** The block's AI-credit port: the query's embedding is charged to its owner. */
  ai?: RunnerAi
}

/** The app's side of `@flowcraft/sdk/knowledge` (see port.ts). */
export interface KnowledgePort {
  searchKnowledge(input: KnowledgeSearchInput): Promise<KnowledgeLookup>
}

/** Why a lookup found nothing, as a log line or a tool's answer says it. */
export function lookupFailure(found: Exclude<KnowledgeLookup, { ok: true }>) {
  if (found.reason === 'unavailable') return found.message
  return found.reason === 'not-found'
    ? 'the knowledge store was not found in this workspace'
    : 'the query is empty'
}

/** Passages as a model reads them: numbered, each with the source it comes from. */
export function formatKnowledgeHits(hits: KnowledgeHit[]) {
  if (hits.length === 0) return 'No passage of the knowledge store matches.'
  return hits
    .map((hit, index) => `[${index + 1}] Source: ${hit.sourceName}\n${hit.content}`)
    .join('\n\n')
}

/**
 * The best passages of one store of the workspace for a query (at most MAX_DOCUMENT_COUNT,
 * DEFAULT_DOCUMENT_COUNT unless `limit` says otherwise). AI-credit errors are thrown; a
 * store's service that fails is an `unavailable` lookup.
 */
export async function searchKnowledge(input: KnowledgeSearchInput): Promise<KnowledgeLookup> {
  return appPort('knowledge').searchKnowledge(input)
}
