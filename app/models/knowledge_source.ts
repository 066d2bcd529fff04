import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import type { SourceStatus, SourceType } from '#shared/knowledge'

/** One document of a knowledge store, indexed on the queue (docs/knowledge.md). */
export default class KnowledgeSource extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare storeId: string

  @column()
  declare type: SourceType

  @column()
  declare name: string

  @column()
  declare status: SourceStatus

  /** Why it FAILED, in words for the builder. */
  @column()
  declare error: string | null

  /** 0-100 while PROCESSING. */
  @column()
  declare progress: number

  @column({ serializeAs: null })
  declare content: string | null

  @column()
  declare url: string | null

  @column({ serializeAs: null })
  declare fileKey: string | null

  @column()
  declare mimeType: string | null

  @column({ consume: (value) => (value === null || value === undefined ? null : Number(value)) })
  declare size: number | null

  @column()
  declare chunkCount: number

  @column()
  declare revision: number

  @column.dateTime()
  declare indexedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
