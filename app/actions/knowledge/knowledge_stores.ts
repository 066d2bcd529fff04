import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import KnowledgeStore from '#models/knowledge_store'
import KnowledgeSource from '#models/knowledge_source'
import AppError from '#exceptions/app_error'
import { checkLimit, effectivePlan } from '#services/capabilities'
import { lockRow } from '#services/plan_limits'
import { isEmbeddingCredential } from '#services/knowledge/embeddings'
import { dispatchIndexing } from '#services/knowledge/jobs'
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

/** An index name from a store name: what Pinecone accepts (lower case, digits, hyphens). */
export function indexNameOf(name: string) {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 45)
    .replace(/-+$/, '')
  return slug || 'knowledge'
}

async function checkSettings(workspaceId: string, input: StoreInput, current?: KnowledgeStore) {
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

async function countNamespaces(
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

/** Stores counted against vectorLimit: every store of the workspace. */
export function countStores(client: any, workspaceId: string) {
  return client
    .from('knowledge_stores')
    .where('workspace_id', workspaceId)
    .count('* as total')
    .then((rows: any[]) => Number(rows[0]?.total ?? 0))
}

export class CreateStore {
  async handle(user: User, workspace: Workspace, input: StoreInput & { name: string }) {
    await checkSettings(workspace.id, input)
    const indexName = input.indexName || indexNameOf(input.name)
    // The plan is read before the transaction: on SQLite it holds the only connection.
    const plan = await effectivePlan(user, workspace)
    return db.transaction(async (trx) => {
      // Counted under the workspace's lock so that two creations cannot pass together
      // (app/services/plan_limits.ts says why).
      await lockRow(trx, 'workspaces', workspace.id)
      checkLimit(plan, 'vectorLimit', await countStores(trx, workspace.id))
      if ((await countNamespaces(trx, workspace.id, indexName)) >= NAMESPACE_LIMIT) {
        throw namespaceLimitError(indexName)
      }
      return KnowledgeStore.create(
        {
          workspaceId: workspace.id,
          createdBy: user.id,
          name: input.name,
          indexName,
          chunkingMethod: input.chunkingMethod ?? 'recursive',
          chunkSize: input.chunkSize ?? DEFAULT_CHUNK_SIZE,
          overlapSize: input.overlapSize ?? DEFAULT_OVERLAP,
          embeddingCredentialsId: input.embeddingCredentialsId || null,
          embeddingModel: input.embeddingModel || null,
        },
        { client: trx }
      )
    })
  }
}

export class UpdateStore {
  /**
   * Renames and changes settings. A change of chunking or embedding makes the stored
   * chunks wrong: every source is indexed again.
   */
  async handle(store: KnowledgeStore, input: StoreInput) {
    await checkSettings(store.workspaceId, input, store)
    if (input.indexName && input.indexName !== store.indexName) {
      if (
        (await countNamespaces(db, store.workspaceId, input.indexName, store.id)) >= NAMESPACE_LIMIT
      ) {
        throw namespaceLimitError(input.indexName)
      }
    }
    const before = [
      store.chunkingMethod,
      store.chunkSize,
      store.overlapSize,
      store.embeddingCredentialsId,
      store.embeddingModel,
    ].join('|')
    store.merge({
      name: input.name ?? store.name,
      indexName: input.indexName ?? store.indexName,
      chunkingMethod: input.chunkingMethod ?? store.chunkingMethod,
      chunkSize: input.chunkSize ?? store.chunkSize,
      overlapSize: input.overlapSize ?? store.overlapSize,
      embeddingCredentialsId:
        input.embeddingCredentialsId === undefined
          ? store.embeddingCredentialsId
          : input.embeddingCredentialsId || null,
      embeddingModel:
        input.embeddingModel === undefined ? store.embeddingModel : input.embeddingModel || null,
    })
    await store.save()
    const after = [
      store.chunkingMethod,
      store.chunkSize,
      store.overlapSize,
      store.embeddingCredentialsId,
      store.embeddingModel,
    ].join('|')
    if (before !== after) {
      const sources = await KnowledgeSource.query().where('store_id', store.id)
      for (const source of sources) await reindex(source)
    }
    return store
  }
}

/** Moves the source to a new revision, PENDING, and queues its job. */
export async function reindex(source: KnowledgeSource) {
  source.merge({ status: 'PENDING', progress: 0, error: null, revision: source.revision + 1 })
  await source.save()
  await dispatchIndexing(source.id, source.revision)
  return source
}

export class DeleteStore {
  async handle(store: KnowledgeStore) {
    const keys = await KnowledgeSource.query().where('store_id', store.id).whereNotNull('file_key')
    await store.delete()
    const { removeFile } = await import('#services/storage')
    for (const source of keys) await removeFile(source.fileKey!).catch(() => {})
  }
}
