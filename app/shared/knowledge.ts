/**
 * Knowledge stores (the Vectors page): what the server and the browser agree on
 * (docs/knowledge.md).
 */

export const SOURCE_TYPES = ['FILE', 'URL', 'TEXT', 'QNA'] as const
export type SourceType = (typeof SOURCE_TYPES)[number]

/** PENDING (default), PROCESSING, COMPLETED, FAILED. */
export const SOURCE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const
export type SourceStatus = (typeof SOURCE_STATUSES)[number]

/**
 * Where a store keeps its chunks: this app's database (`local`), or the service of a plugin
 * that offers a vector store backend (its id; docs/knowledge.md, "Stores kept by a plugin").
 */
export const LOCAL_BACKEND = 'local'
export type StoreBackend = string

/** recursive: paragraphs, then sentences, then words; fixed: windows of characters. */
export const CHUNKING_METHODS = ['recursive', 'fixed'] as const
export type ChunkingMethod = (typeof CHUNKING_METHODS)[number]

/** ChunkSize 1000, overlap 100. */
export const DEFAULT_CHUNK_SIZE = 1000
export const DEFAULT_OVERLAP = 100
export const MIN_CHUNK_SIZE = 100
export const MAX_CHUNK_SIZE = 8000

/** Vector namespace limit 5 (stores per index). */
export const NAMESPACE_LIMIT = 5

// What a lookup returns and its bounds are the SDK's (plugins search stores too): one declaration.
export {
  DEFAULT_DOCUMENT_COUNT,
  MAX_DOCUMENT_COUNT,
  type KnowledgeHit,
  type KnowledgeSearchResult,
} from '../../packages/sdk/src/knowledge.js'

/** What a source may weigh (an uploaded file, a fetched page). */
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024
export const FILE_EXTENSIONS = ['pdf', 'docx', 'txt', 'md', 'csv', 'html', 'htm'] as const

export interface QnaPair {
  question: string
  answer: string
}

export interface KnowledgeSourceDto {
  id: string
  type: SourceType
  name: string
  status: SourceStatus
  error: string | null
  progress: number
  chunkCount: number
  size: number | null
  url: string | null
  indexedAt: string | null
  createdAt: string
}

export interface KnowledgeStoreDto {
  id: string
  name: string
  indexName: string
  chunkingMethod: ChunkingMethod
  chunkSize: number
  overlapSize: number
  embeddingCredentialsId: string | null
  embeddingModel: string | null
  backend: StoreBackend
  /** A store kept by a plugin: the workspace credentials of the account holding the index. */
  backendCredentialsId: string | null
  backendNamespace: string | null
  sourceCount: number
  chunkCount: number
  createdAt: string
}

/** Credentials of the workspace whose plugin can embed text (hybrid search). */
export interface EmbeddingCredentialOption {
  id: string
  name: string
  type: string
  defaultModel: string
}

/** What search can use on this database (docs/knowledge.md). */
export interface SearchCapabilities {
  keyword: 'fts5' | 'postgres' | 'fulltext' | 'like'
  vector: 'sqlite-vec' | 'pgvector' | 'js'
}

/** Credentials of the workspace a store can live in: their type is the backend's plugin. */
export interface BackendCredentialOption {
  id: string
  name: string
  backend: string
}

/** An index of a backend's account, as the store form lists them. */
export interface BackendIndexOption {
  name: string
  /** Whether the service embeds the text itself: only those can hold a store. */
  integrated: boolean
  model: string | null
}

export interface VectorsPageProps {
  stores: KnowledgeStoreDto[]
  canWrite: boolean
  limit: { used: number; limit: number }
  embeddingCredentials: EmbeddingCredentialOption[]
  backendCredentials: BackendCredentialOption[]
  capabilities: SearchCapabilities
}

export interface VectorStorePageProps {
  store: KnowledgeStoreDto
  sources: KnowledgeSourceDto[]
  canWrite: boolean
  embeddingCredentials: EmbeddingCredentialOption[]
  capabilities: SearchCapabilities
}
