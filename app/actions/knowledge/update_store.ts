import db from '@adonisjs/lucid/services/db'
import KnowledgeStore from '#models/knowledge_store'
import KnowledgeSource from '#models/knowledge_source'
import { dispatchIndexing } from '#services/knowledge/jobs'
import { keptByPlugin } from '#services/knowledge/store_backend'
import { NAMESPACE_LIMIT } from '#shared/knowledge'
import {
  StoreInput,
  namespaceLimitError,
  checkSettings,
  countNamespaces,
  invalidStore,
} from './knowledge_stores.js'

export class UpdateStore {
  /**
   * Renames and changes settings. A change of chunking or embedding makes the stored
   * chunks wrong: every source is indexed again.
   */
  async handle(store: KnowledgeStore, input: StoreInput) {
    await checkSettings(store.workspaceId, input, store)
    if (keptByPlugin(store)) {
      // Its records live in that index and namespace; moving them is a new store's job.
      if (input.indexName && input.indexName !== store.indexName) {
        throw invalidStore('The index of a store kept by a plugin cannot change', 'indexName')
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
