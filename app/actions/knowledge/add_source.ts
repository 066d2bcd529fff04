import KnowledgeSource from '#models/knowledge_source'
import KnowledgeStore from '#models/knowledge_store'
import { privateKey, putFile, safeFileName } from '#services/storage'
import { dispatchIndexing } from '#services/knowledge/jobs'
import { tooLargeMessage } from '#services/knowledge/indexing'
import { FILE_EXTENSIONS, MAX_SOURCE_BYTES, type QnaPair } from '#shared/knowledge'

/**
 * Sources of a store (docs/knowledge.md, "Sources"): each is saved PENDING and indexed by
 * the queue. A file that cannot be indexed (too large, a type the store does not read) is
 * still listed, FAILED with the reason, so the builder sees what happened to it.
 */

export type SourceInput =
  | { type: 'TEXT'; name?: string; text: string }
  | { type: 'QNA'; name?: string; pairs: QnaPair[] }
  | { type: 'URL'; url: string }
  | { type: 'FILE'; file: { bytes: Uint8Array; name: string; mimeType?: string; size?: number } }

function titleOf(text: string) {
  const line = text.trim().split('\n')[0].trim()
  return line.length > 80 ? `${line.slice(0, 77)}...` : line || 'Text'
}

export class AddSource {
  async handle(store: KnowledgeStore, input: SourceInput) {
    const source = new KnowledgeSource()
    source.fill({
      storeId: store.id,
      type: input.type,
      status: 'PENDING',
      progress: 0,
      chunkCount: 0,
      revision: 1,
    })
    let failure: string | null = null
    if (input.type === 'TEXT') {
      source.name = input.name || titleOf(input.text)
      source.content = input.text
      source.size = Buffer.byteLength(input.text)
    } else if (input.type === 'QNA') {
      source.name =
        input.name || `${input.pairs.length} question${input.pairs.length === 1 ? '' : 's'}`
      source.content = JSON.stringify(
        input.pairs.map(({ question, answer }) => ({ question, answer }))
      )
      source.size = Buffer.byteLength(source.content)
    } else if (input.type === 'URL') {
      source.name = input.url.slice(0, 512)
      source.url = input.url
    } else {
      const { file } = input
      const size = file.size ?? file.bytes.byteLength
      source.name = file.name.slice(0, 255) || 'file'
      source.mimeType = file.mimeType?.slice(0, 128) ?? null
      source.size = size
      const extension = source.name.toLowerCase().split('.').pop() ?? ''
      if (size > MAX_SOURCE_BYTES) failure = tooLargeMessage(size)
      else if (!(FILE_EXTENSIONS as readonly string[]).includes(extension)) {
        failure = `".${extension}" files are not read; use ${FILE_EXTENSIONS.filter(
          (e) => e !== 'htm'
        )
          .join(', ')
          .toUpperCase()}`
      }
    }
    if (failure) {
      source.status = 'FAILED'
      source.error = failure
      await source.save()
      return source
    }
    await source.save()
    if (input.type === 'FILE') {
      source.fileKey = privateKey(
        store.workspaceId,
        'knowledge',
        store.id,
        `${source.id}-${safeFileName(source.name)}`
      )
      await putFile(source.fileKey, input.file.bytes, { contentType: source.mimeType ?? undefined })
      await source.save()
    }
    await dispatchIndexing(source.id, source.revision)
    return source
  }
}
