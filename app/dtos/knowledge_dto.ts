import type KnowledgeSource from '#models/knowledge_source'
import type KnowledgeStore from '#models/knowledge_store'
import type { KnowledgeSourceDto, KnowledgeStoreDto } from '#shared/knowledge'

/** What the Vectors pages get of stores and sources: never the stored text or file key. */
export function toStoreDto(
  store: KnowledgeStore,
  counts: { sources: number; chunks: number } = { sources: 0, chunks: 0 }
): KnowledgeStoreDto {
  return {
    id: store.id,
    name: store.name,
    indexName: store.indexName,
    chunkingMethod: store.chunkingMethod,
    chunkSize: store.chunkSize,
    overlapSize: store.overlapSize,
    embeddingCredentialsId: store.embeddingCredentialsId,
    embeddingModel: store.embeddingModel,
    backend: store.backend ?? 'local',
    backendCredentialsId: store.backendCredentialsId ?? null,
    backendNamespace: store.backendNamespace ?? null,
    sourceCount: counts.sources,
    chunkCount: counts.chunks,
    createdAt: store.createdAt.toISO() ?? '',
  }
}

export function toSourceDto(source: KnowledgeSource): KnowledgeSourceDto {
  return {
    id: source.id,
    type: source.type,
    name: source.name,
    status: source.status,
    error: source.error,
    progress: source.progress,
    chunkCount: source.chunkCount,
    size: source.size,
    url: source.url,
    indexedAt: source.indexedAt?.toISO() ?? null,
    createdAt: source.createdAt.toISO() ?? '',
  }
}
