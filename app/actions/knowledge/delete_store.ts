import KnowledgeStore from '#models/knowledge_store'
import KnowledgeSource from '#models/knowledge_source'
import AppError from '#exceptions/app_error'
import { forgetSources, PineconeStoreError } from '#services/knowledge/store_backend'

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
