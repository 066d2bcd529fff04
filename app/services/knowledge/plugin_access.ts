import KnowledgeStore from '#models/knowledge_store'
import {
  isAiCreditError,
  KNOWLEDGE_TOOL_NAME,
  type AgentTool,
  type KnowledgeToolInput,
} from '#sdk/ai'
import {
  DEFAULT_DOCUMENT_COUNT,
  MAX_DOCUMENT_COUNT,
  formatKnowledgeHits,
  lookupFailure,
  type KnowledgeHit,
  type KnowledgeLookup,
  type KnowledgeSearchInput,
  type KnowledgeSearchResult,
} from '#sdk/knowledge'
import { searchKnowledgeStore } from './store_backend.js'

/**
 * What plugins reach of knowledge stores (through #sdk/knowledge, whose port this answers):
 * the stores of the block's own workspace, searched by id. A store of another workspace is
 * "not found".
 */

export async function knowledgeStoresOf(workspaceId: string) {
  const stores = await KnowledgeStore.query().where('workspace_id', workspaceId).orderBy('name')
  return stores.map((store) => ({ value: store.id, label: store.name }))
}

export async function searchKnowledge(input: KnowledgeSearchInput): Promise<KnowledgeLookup> {
  const store = await KnowledgeStore.find(input.storeId)
  if (!store || store.workspaceId !== input.workspaceId) return { ok: false, reason: 'not-found' }
  if (!input.query.trim()) return { ok: false, reason: 'empty-query' }
  const limit = Math.min(MAX_DOCUMENT_COUNT, Math.max(1, input.limit ?? DEFAULT_DOCUMENT_COUNT))
  let result: KnowledgeSearchResult
  try {
    result = await searchKnowledgeStore(store, input.query, {
      limit,
      signal: input.signal,
      ai: input.ai,
    })
  } catch (error) {
    if (isAiCreditError(error)) throw error
    return { ok: false, reason: 'unavailable', message: (error as Error).message }
  }
  return { ok: true, storeName: store.name, ...result }
}

/** What the model reads about the tool (English: it is a prompt, not an interface text). */
const TOOL_PURPOSE =
  'Search the knowledge base for passages that answer a question. Returns numbered passages, each with its source; cite the sources you use.'
const QUERY_PURPOSE = 'What to look for, in a few words'

// The SDK names the tool: chat blocks match its calls by that name.
export { KNOWLEDGE_TOOL_NAME }

/**
 * The "search knowledge" tool of agents and chat blocks: the model sends a query, gets the
 * best passages of each store with their sources. `onHits` sees every passage returned
 * (a chat block saves their sources).
 */
export function knowledgeAgentTool(input: KnowledgeToolInput): AgentTool {
  const storeIds = [
    ...new Set([...(input.storeIds ?? []), ...(input.storeId ? [input.storeId] : [])]),
  ]
  return {
    schema: {
      name: KNOWLEDGE_TOOL_NAME,
      description: TOOL_PURPOSE,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: QUERY_PURPOSE } },
        required: ['query'],
      },
    },
    async execute(args) {
      const query = typeof args.query === 'string' ? args.query : ''
      const hits: KnowledgeHit[] = []
      const failures: string[] = []
      for (const storeId of storeIds) {
        const found = await searchKnowledge({ ...input, storeId, query })
        if (!found.ok) {
          failures.push(lookupFailure(found))
          continue
        }
        hits.push(...found.hits)
        input.onHits?.(found.hits.map((hit) => ({ ...hit, storeName: found.storeName })))
      }
      if (hits.length === 0 && failures.length > 0) return `Error: ${failures.join('; ')}`
      return formatKnowledgeHits(hits)
    },
  }
}
