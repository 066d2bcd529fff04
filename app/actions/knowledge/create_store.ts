import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import KnowledgeStore from '#models/knowledge_store'
import AppError from '#exceptions/app_error'
import { checkLimit, planFor } from '#services/capabilities'
import { lockRow } from '#services/plan_limits'
import { backendAccountFor, storeBackendIds } from '#services/knowledge/store_backend'
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_OVERLAP,
  NAMESPACE_LIMIT,
  LOCAL_BACKEND,
  type BackendIndexOption,
  type StoreBackend,
} from '#shared/knowledge'
import {
  StoreInput,
  namespaceLimitError,
  checkSettings,
  countNamespaces,
  invalidStore,
} from './knowledge_stores.js'

export interface CreateStoreInput extends StoreInput {
  name: string
  backend?: StoreBackend
  backendCredentialsId?: string | null
  backendNamespace?: string | null
}

/** An index name from a store name: what vector services accept (lower case, digits, hyphens). */
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

/**
 * The indexes of workspace credentials that can hold a store, for the store form's picker
 * and a new store's check: listed by the backend of the credentials' plugin.
 */
export async function backendIndexesOf(
  workspaceId: string,
  credentialsId: string,
  backendId?: string
): Promise<BackendIndexOption[]> {
  let account
  try {
    account = await backendAccountFor(workspaceId, credentialsId, backendId)
  } catch (error) {
    throw invalidStore((error as Error).message, 'backendCredentialsId')
  }
  try {
    return await account.backend.indexes({ credentials: account.credentials, http: account.http })
  } catch (error) {
    throw new AppError('The vector store could not list the indexes', {
      status: 502,
      code: 'E_STORE_BACKEND',
      description: (error as Error).message,
      field: 'backendCredentialsId',
    })
  }
}

/**
 * A store kept by a plugin needs credentials of the workspace of that plugin and an index
 * of that account that embeds the text itself (an integrated index): the store sends text,
 * never vectors. No two stores of the workspace share an index's namespace.
 */
async function checkBackendPlace(
  workspaceId: string,
  backend: string,
  input: CreateStoreInput,
  indexName: string
) {
  if (!(await storeBackendIds()).includes(backend)) {
    throw invalidStore(`No plugin keeps stores as "${backend}"`, 'backend')
  }
  if (!input.backendCredentialsId) {
    throw invalidStore('Choose the credentials of the account', 'backendCredentialsId')
  }
  if (!input.indexName) throw invalidStore('Choose an index', 'indexName')
  const index = (await backendIndexesOf(workspaceId, input.backendCredentialsId, backend)).find(
    (item) => item.name === indexName
  )
  if (!index) throw invalidStore(`The account has no index named "${indexName}"`, 'indexName')
  if (!index.integrated) {
    throw invalidStore(
      `The index "${indexName}" does not embed text: create it with integrated embedding (the plugin's documentation says how)`,
      'indexName'
    )
  }
  const namespace = input.backendNamespace ?? ''
  const taken = await KnowledgeStore.query()
    .where('workspace_id', workspaceId)
    .where('backend', backend)
    .where('index_name', indexName)
    // The column of backendNamespace (the model says why it keeps that name).
    .where('pinecone_namespace', namespace)
    .first()
  if (taken) {
    throw invalidStore(
      `The store "${taken.name}" already uses this namespace of "${indexName}"`,
      'backendNamespace'
    )
  }
}

export class CreateStore {
  async handle(user: User, workspace: Workspace, input: CreateStoreInput) {
    await checkSettings(workspace.id, input)
    const backend = input.backend ?? LOCAL_BACKEND
    const kept = backend !== LOCAL_BACKEND
    const indexName = input.indexName || indexNameOf(input.name)
    if (kept) await checkBackendPlace(workspace.id, backend, input, indexName)
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
          // A plugin's service embeds the chunks of a store it keeps: no embedder of ours.
          embeddingCredentialsId: kept ? null : input.embeddingCredentialsId || null,
          embeddingModel: kept ? null : input.embeddingModel || null,
          backend,
          backendCredentialsId: kept ? input.backendCredentialsId! : null,
          backendNamespace: kept ? (input.backendNamespace ?? '') : null,
        },
        { client: trx }
      )
    })
  }
}
