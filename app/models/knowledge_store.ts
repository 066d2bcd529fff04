import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import type { ChunkingMethod, StoreBackend } from '#shared/knowledge'

/** A knowledge store of a workspace (docs/knowledge.md). */
export default class KnowledgeStore extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare createdBy: string | null

  @column()
  declare name: string

  /** Stores sharing an index name are its namespaces (at most NAMESPACE_LIMIT). */
  @column()
  declare indexName: string

  @column()
  declare chunkingMethod: ChunkingMethod

  @column()
  declare chunkSize: number

  @column()
  declare overlapSize: number

  @column()
  declare embeddingCredentialsId: string | null

  @column()
  declare embeddingModel: string | null

  /** `local` (this app's database) or `pinecone` (docs/knowledge.md, "Stores in Pinecone"). */
  @column()
  declare backend: StoreBackend

  /** A Pinecone store: the workspace credentials of the account holding `indexName`. */
  @column()
  declare pineconeCredentialsId: string | null

  @column()
  declare pineconeNamespace: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
