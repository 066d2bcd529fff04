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

  /**
   * `local` (this app's database) or the id of the plugin whose service keeps the chunks
   * (docs/knowledge.md, "Stores kept by a plugin").
   */
  @column()
  declare backend: StoreBackend

  /**
   * A store kept by a plugin: the workspace credentials of the account holding `indexName`,
   * and the namespace of that index. The columns keep the names of the first backend (a
   * rename would rewrite the table of every install for nothing a reader of the model sees).
   */
  @column({ columnName: 'pinecone_credentials_id' })
  declare backendCredentialsId: string | null

  @column({ columnName: 'pinecone_namespace' })
  declare backendNamespace: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
