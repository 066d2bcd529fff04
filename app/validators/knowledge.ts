import vine from '@vinejs/vine'
import {
  CHUNKING_METHODS,
  MAX_CHUNK_SIZE,
  MAX_DOCUMENT_COUNT,
  MIN_CHUNK_SIZE,
} from '#shared/knowledge'

/**
 * Index names: lower-case letters, digits and hyphens (docs/knowledge.md), which the vector
 * services stores may live in accept too.
 */
const INDEX_NAME = /^[a-z0-9](?:[a-z0-9-]{0,43}[a-z0-9])?$/

const storeFields = {
  name: vine.string().trim().minLength(1).maxLength(255),
  indexName: vine.string().trim().toLowerCase().regex(INDEX_NAME).optional(),
  chunkingMethod: vine.enum(CHUNKING_METHODS).optional(),
  chunkSize: vine.number().withoutDecimals().min(MIN_CHUNK_SIZE).max(MAX_CHUNK_SIZE).optional(),
  overlapSize: vine.number().withoutDecimals().min(0).max(MAX_CHUNK_SIZE).optional(),
  embeddingCredentialsId: vine.string().trim().maxLength(32).nullable().optional(),
  embeddingModel: vine.string().trim().maxLength(128).nullable().optional(),
}

export const createStoreValidator = vine.compile(
  vine.object({
    ...storeFields,
    // `local` or a plugin offering a vector store: CreateStore asks the registry.
    backend: vine.string().trim().minLength(1).maxLength(16).optional(),
    backendCredentialsId: vine.string().trim().maxLength(32).nullable().optional(),
    // A namespace of the index: any text up to 128 characters; empty is the default one.
    backendNamespace: vine.string().trim().maxLength(128).nullable().optional(),
  })
)

export const backendIndexesValidator = vine.compile(
  vine.object({ credentialsId: vine.string().trim().minLength(1).maxLength(32) })
)

export const updateStoreValidator = vine.compile(
  vine.object({ ...storeFields, name: storeFields.name.optional() })
)

export const textSourceValidator = vine.compile(
  vine.object({
    type: vine.literal('TEXT'),
    name: vine.string().trim().maxLength(255).optional(),
    text: vine.string().trim().minLength(1).maxLength(2_000_000),
  })
)

export const qnaSourceValidator = vine.compile(
  vine.object({
    type: vine.literal('QNA'),
    name: vine.string().trim().maxLength(255).optional(),
    pairs: vine
      .array(
        vine.object({
          question: vine.string().trim().minLength(1).maxLength(10_000),
          answer: vine.string().trim().minLength(1).maxLength(100_000),
        })
      )
      .minLength(1)
      .maxLength(5000),
  })
)

export const urlSourceValidator = vine.compile(
  vine.object({
    type: vine.literal('URL'),
    url: vine
      .string()
      .trim()
      .url({ require_protocol: true, protocols: ['http', 'https'] }),
  })
)

export const searchValidator = vine.compile(
  vine.object({
    query: vine.string().trim().minLength(1).maxLength(2000),
    limit: vine.number().withoutDecimals().min(1).max(MAX_DOCUMENT_COUNT).optional(),
  })
)
