import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import KnowledgeStore from '#models/knowledge_store'
import KnowledgeSource from '#models/knowledge_source'
import AppError from '#exceptions/app_error'
import { checkLimit, planFor } from '#services/capabilities'
import { lockRow } from '#services/plan_limits'
import { isEmbeddingCredential } from '#services/knowledge/embeddings'
import { dispatchIndexing } from '#services/knowledge/jobs'
import {
  forgetSources,
  pineconeAccountFor,
  PineconeStoreError,
} from '#services/knowledge/store_backend'
import {
  listIndexes,
  CHUNK_TEXT_FIELD,
  PINECONE_CREDENTIAL_TYPE,
  PINECONE_EMBED_MODEL,
} from '#services/pinecone'
import Credential from '#models/credential'
import { createGuardedHttp } from '#plugins/guarded_http'
import { credentialEgress } from '#services/egress'
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_OVERLAP,
  NAMESPACE_LIMIT,
  type ChunkingMethod,
  type StoreBackend,
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

export interface CreateStoreInput extends StoreInput {
  name: string
  backend?: StoreBackend
  pineconeCredentialsId?: string | null
  pineconeNamespace?: string | null
}

/** Pinecone credentials of the workspace, for the store form. */
export async function pineconeCredentialsOf(workspaceId: string) {
  const rows = await Credential.query()
    .where('workspace_id', workspaceId)
    .where('type', PINECONE_CREDENTIAL_TYPE)
    .orderBy('name')
  return rows.map((row) => ({ id: row.id, name: row.name }))
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

function pineconeInvalid(message: string, field: string) {
  return new AppError(message, { status: 422, code: 'E_VALIDATION', field })
}

/** The indexes of a Pinecone account of the workspace, for the store form's picker. */
export async function pineconeIndexesOf(workspaceId: string, credentialsId: string) {
  let account
  try {
    account = await pineconeAccountFor(workspaceId, credentialsId)
  } catch (error) {
    throw pineconeInvalid((error as Error).message, 'pineconeCredentialsId')
  }
  const http = createGuardedHttp({
    ...credentialEgress(),
    timeoutMs: 30_000,
  })
  try {
    return await listIndexes(http, account)
  } catch (error) {
    throw new AppError('Pinecone could not list the indexes', {
      status: 502,
      code: 'E_PINECONE',
      description: (error as Error).message,
      field: 'pineconeCredentialsId',
    })
  }
}

/**
 * A Pinecone store needs credentials of the workspace and an index of that account that
 * embeds `chunk_text` itself (an integrated index): the store sends text, never vectors.
 * No two stores of the workspace share an index's namespace.
 */
async function checkPinecone(workspaceId: string, input: CreateStoreInput, indexName: string) {
  if (!input.pineconeCredentialsId) {
    throw pineconeInvalid('Choose the Pinecone credentials', 'pineconeCredentialsId')
  }
  if (!input.indexName) throw pineconeInvalid('Choose a Pinecone index', 'indexName')
  const index = (await pineconeIndexesOf(workspaceId, input.pineconeCredentialsId)).find(
    (item) => item.name === indexName
  )
  if (!index) throw pineconeInvalid(`Pinecone has no index named "${indexName}"`, 'indexName')
  if (
    !index.embed?.model ||
    !Object.values(index.embed.field_map ?? {}).includes(CHUNK_TEXT_FIELD)
  ) {
    throw pineconeInvalid(
      `The index "${indexName}" does not embed text: create it with integrated embedding (for example ${PINECONE_EMBED_MODEL}) mapping the field "${CHUNK_TEXT_FIELD}"`,
      'indexName'
    )
  }
  const namespace = input.pineconeNamespace ?? ''
  const taken = await KnowledgeStore.query()
    .where('workspace_id', workspaceId)
    .where('backend', 'pinecone')
    .where('index_name', indexName)
    .where('pinecone_namespace', namespace)
    .first()
  if (taken) {
    throw pineconeInvalid(
      `The store "${taken.name}" already uses this namespace of "${indexName}"`,
      'pineconeNamespace'
    )
  }
}

export class CreateStore {
  async handle(user: User, workspace: Workspace, input: CreateStoreInput) {
    await checkSettings(workspace.id, input)
    const backend = input.backend ?? 'local'
    const indexName = input.indexName || indexNameOf(input.name)
    if (backend === 'pinecone') await checkPinecone(workspace.id, input, indexName)
    // The plan is read before the transaction: on SQLite it holds the only connection.
    const plan = await planFor(user, workspace)
    return db.transaction(async (trx) => {
      // Counted under the workspace's lock so that two creations cannot pass together
      // (app/services/plan_limits.ts says why).
      await lockRow(trx, 'workspaces', workspace.id)
      checkLimit(plan, 'vectorLimit', await countStores(trx, workspace.id), {
        who: { userId: user.id, workspaceId: workspace.id },
      })
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
          // Pinecone embeds a Pinecone store's chunks itself: no embedder of ours.
          embeddingCredentialsId:
            backend === 'pinecone' ? null : input.embeddingCredentialsId || null,
          embeddingModel: backend === 'pinecone' ? null : input.embeddingModel || null,
          backend,
          pineconeCredentialsId: backend === 'pinecone' ? input.pineconeCredentialsId! : null,
          pineconeNamespace: backend === 'pinecone' ? (input.pineconeNamespace ?? '') : null,
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
    if (store.backend === 'pinecone') {
      // Its records live in that index and namespace; moving them is a new store's job.
      if (input.indexName && input.indexName !== store.indexName) {
        throw pineconeInvalid('The index of a Pinecone store cannot change', 'indexName')
      }
      input = { ...input, embeddingCredentialsId: undefined, embeddingModel: undefined }
    }
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

/**
 * Deletes the Pinecone records of sources of a store kept in Pinecone. A refusal of
 * Pinecone stops the deletion with its reason (the records would stay, unreachable);
 * credentials that are gone (`lenient`, for a whole store) cannot delete anything and
 * do not keep the store.
 */
export async function forgetRecords(store: KnowledgeStore, sourceIds: string[], lenient = false) {
  try {
    await forgetSources(store, sourceIds)
  } catch (error) {
    if (lenient && error instanceof PineconeStoreError) return
    throw new AppError('Pinecone could not delete the records', {
      status: 502,
      code: 'E_PINECONE',
      description: (error as Error).message,
    })
  }
}

export class DeleteStore {
  async handle(store: KnowledgeStore) {
    const sources = await KnowledgeSource.query().where('store_id', store.id).select('id')
    await forgetRecords(
      store,
      sources.map((source) => source.id),
      true
    )
    const keys = await KnowledgeSource.query().where('store_id', store.id).whereNotNull('file_key')
    await store.delete()
    const { removeFile } = await import('#services/storage')
    for (const source of keys) await removeFile(source.fileKey!).catch(() => {})
  }
}
