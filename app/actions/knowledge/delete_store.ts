import KnowledgeStore from '#models/knowledge_store'
import KnowledgeSource from '#models/knowledge_source'
import AppError from '#exceptions/app_error'
import { forgetSources, StoreBackendError } from '#services/knowledge/store_backend'

/**
 * Deletes the records of sources of a store kept by a plugin's service. A refusal of the
 * service stops the deletion with its reason (the records would stay, unreachable);
 * credentials that are gone (`lenient`, for a whole store) cannot delete anything and
 * do not keep the store.
 */
export async function forgetRecords(store: KnowledgeStore, sourceIds: string[], lenient = false) {
  try {
    await forgetSources(store, sourceIds)
  } catch (error) {
    if (lenient && error instanceof StoreBackendError) return
    throw new AppError('The vector store could not delete the records', {
      status: 502,
      code: 'E_STORE_BACKEND',
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
