import KnowledgeSource from '#models/knowledge_source'
import KnowledgeStore from '#models/knowledge_store'
import { removeFile } from '#services/storage'
import { forgetRecords } from './delete_store.js'

export class DeleteSource {
  async handle(source: KnowledgeSource) {
    const key = source.fileKey
    const store = await KnowledgeStore.findOrFail(source.storeId)
    // A plugin-kept store's records are deleted first: if the service refuses, the source stays
    // and the builder sees why.
    await forgetRecords(store, [source.id])
    // Chunks go with the source (cascade); a running job finds its revision gone and stops.
    await source.delete()
    if (key) await removeFile(key).catch(() => {})
  }
}
