import KnowledgeSource from '#models/knowledge_source'
import AppError from '#exceptions/app_error'
import { reindex } from './update_store.js'

export class ReindexSource {
  async handle(source: KnowledgeSource) {
    if (source.type === 'FILE' && !source.fileKey) {
      throw new AppError('This file was never stored', {
        status: 422,
        code: 'E_SOURCE',
        description: 'Upload it again.',
      })
    }
    return reindex(source)
  }
}
