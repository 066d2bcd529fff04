import type { VectorStoreBackend } from '#sdk/runner'
import {
  CHUNK_TEXT_FIELD,
  PINECONE_EMBED_MODEL,
  deleteRecords,
  indexHost,
  listIndexes,
  listRecordIds,
  pineconeAccountOf,
  searchRecords,
  upsertRecords,
} from './api.js'

/**
 * Knowledge stores kept in Pinecone (docs/knowledge.md, "Stores kept by a plugin"): an index
 * with integrated embedding, where each chunk is a record holding its text in `chunk_text`
 * (the field Pinecone embeds) and the store's fields beside it. Pinecone embeds both the
 * chunks and the queries, so the store sends text, never vectors.
 */
export const vectorStore: VectorStoreBackend = {
  embeddingModel: PINECONE_EMBED_MODEL,
  // Pinecone's limit of records per upsert request.
  batchSize: 96,

  async indexes({ credentials, http, signal }) {
    const list = await listIndexes(http, pineconeAccountOf(credentials), signal)
    return list.map((index) => {
      const integrated =
        !!index.embed?.model &&
        Object.values(index.embed.field_map ?? {}).includes(CHUNK_TEXT_FIELD)
      return { name: index.name, integrated, model: integrated ? index.embed!.model! : null }
    })
  },

  async open({ credentials, http, signal, index, namespace }) {
    const account = pineconeAccountOf(credentials)
    const host = await indexHost(http, account, index, signal)
    return {
      async upsert(records) {
        await upsertRecords(
          http,
          account,
          {
            host,
            namespace,
            records: records.map((record) => ({
              ...record.fields,
              id: record.id,
              [CHUNK_TEXT_FIELD]: record.text,
            })),
          },
          signal
        )
      },
      async query({ text, topK, fields }) {
        let embeddedTokens: number | undefined
        const found = await searchRecords(
          http,
          account,
          {
            host,
            namespace,
            text,
            topK,
            fields: [CHUNK_TEXT_FIELD, ...fields],
            onUsage: (tokens) => (embeddedTokens = tokens),
          },
          signal
        )
        const hits = found.map(({ id, score, fields: { [CHUNK_TEXT_FIELD]: chunk, ...rest } }) => ({
          id,
          score,
          text: typeof chunk === 'string' ? chunk : '',
          fields: rest,
        }))
        return { hits, embeddedTokens }
      },
      async deleteByPrefix(prefix) {
        const ids = await listRecordIds(http, account, { host, namespace, prefix }, signal)
        if (ids.length > 0) await deleteRecords(http, account, { host, namespace, ids }, signal)
      },
    }
  },
}
