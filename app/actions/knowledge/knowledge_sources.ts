import KnowledgeSource from '#models/knowledge_source'
import KnowledgeStore from '#models/knowledge_store'
import AppError from '#exceptions/app_error'

export async function findSource(store: KnowledgeStore, sourceId: string) {
  const source = await KnowledgeSource.query()
    .where('id', sourceId)
    .where('store_id', store.id)
    .first()
  if (!source) throw AppError.notFound('Source not found')
  return source
}
