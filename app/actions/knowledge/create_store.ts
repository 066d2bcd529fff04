import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import KnowledgeStore from '#models/knowledge_store'
import AppError from '#exceptions/app_error'
import { checkLimit, planFor } from '#services/capabilities'
import { lockRow } from '#services/plan_limits'
import { pineconeAccountFor } from '#services/knowledge/store_backend'
import { listIndexes, CHUNK_TEXT_FIELD, PINECONE_EMBED_MODEL } from '#services/pinecone'
import { createGuardedHttp } from '#plugins/guarded_http'
import { credentialEgress } from '#services/egress'
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_OVERLAP,
  NAMESPACE_LIMIT,
  type StoreBackend,
} from '#shared/knowledge'
import {
  StoreInput,
  namespaceLimitError,
  checkSettings,
  countNamespaces,
  pineconeInvalid,
} from './knowledge_stores.js'

export interface CreateStoreInput extends StoreInput {
  name: string
  backend?: StoreBackend
  pineconeCredentialsId?: string | null
  pineconeNamespace?: string | null
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

/** Stores counted against vectorLimit: every store of the workspace. */
export function countStores(client: any, workspaceId: string) {
  return client
    .from('knowledge_stores')
    .where('workspace_id', workspaceId)
    .count('* as total')
    .then((rows: any[]) => Number(rows[0]?.total ?? 0))
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
