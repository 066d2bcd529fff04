import db from '@adonisjs/lucid/services/db'
import KnowledgeStore from '#models/knowledge_store'
import AppError from '#exceptions/app_error'
import { isEmbeddingCredential } from '#services/knowledge/embeddings'
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_OVERLAP,
  NAMESPACE_LIMIT,
  type ChunkingMethod,
} from '#shared/knowledge'

/**
 * Knowledge stores of a workspace (docs/knowledge.md): create under the plan's vectorLimit
 * and the namespace limit, rename and change settings, delete. Callers authorize first
 * (KnowledgeStorePolicy).
 */

export interface StoreInput {
  name?: string
  indexName?: string
  chunkingMethod?: ChunkingMethod
  chunkSize?: number
  overlapSize?: number
  embeddingCredentialsId?: string | null
  embeddingModel?: string | null
}

export function namespaceLimitError(indexName: string) {
  return new AppError('Namespace limit reached', {
    status: 403,
    code: 'E_NAMESPACE_LIMIT',
    description: `The index "${indexName}" already holds ${NAMESPACE_LIMIT} namespaces (stores). Choose another index name.`,
    field: 'indexName',
  })
}

export async function checkSettings(
  workspaceId: string,
  input: StoreInput,
  current?: KnowledgeStore
) {
  const size = input.chunkSize ?? current?.chunkSize ?? DEFAULT_CHUNK_SIZE
  const overlap = input.overlapSize ?? current?.overlapSize ?? DEFAULT_OVERLAP
  if (overlap >= size) {
    throw new AppError('The overlap must be smaller than the chunk size', {
      status: 422,
      code: 'E_VALIDATION',
      field: 'overlapSize',
    })
  }
  if (input.embeddingCredentialsId) {
    if (!(await isEmbeddingCredential(workspaceId, input.embeddingCredentialsId))) {
      throw new AppError('These credentials cannot embed text', {
        status: 422,
        code: 'E_VALIDATION',
        field: 'embeddingCredentialsId',
      })
    }
  }
}

export async function countNamespaces(
  client: any,
  workspaceId: string,
  indexName: string,
  except?: string
) {
  const query = client
    .from('knowledge_stores')
    .where('workspace_id', workspaceId)
    .where('index_name', indexName)
  if (except) query.whereNot('id', except)
  const [row] = await query.count('* as total')
  return Number(row?.total ?? 0)
}

export async function listStores(workspaceId: string) {
  const stores = await KnowledgeStore.query()
    .where('workspace_id', workspaceId)
    .orderBy('created_at', 'desc')
  const sources = await db
    .from('knowledge_sources')
    .join('knowledge_stores', 'knowledge_stores.id', 'knowledge_sources.store_id')
    .where('knowledge_stores.workspace_id', workspaceId)
    .groupBy('knowledge_sources.store_id')
    .select('knowledge_sources.store_id as storeId')
    .count('* as sources')
    .sum('knowledge_sources.chunk_count as chunks')
  const counts = new Map(
    sources.map((row) => [
      row.storeId,
      { sources: Number(row.sources), chunks: Number(row.chunks ?? 0) },
    ])
  )
  return stores.map((store) => ({
    store,
    counts: counts.get(store.id) ?? { sources: 0, chunks: 0 },
  }))
}

export async function countsOf(storeId: string) {
  const [row] = await db
    .from('knowledge_sources')
    .where('store_id', storeId)
    .count('* as sources')
    .sum('chunk_count as chunks')
  return { sources: Number(row?.sources ?? 0), chunks: Number(row?.chunks ?? 0) }
}

export function invalidStore(message: string, field: string) {
  return new AppError(message, { status: 422, code: 'E_VALIDATION', field })
}
