import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'

/** An encrypted credentials record (AES-256-GCM; see app/plugins/vault.ts). */
export default class Credential extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare userId: string | null

  /** The plugin id, e.g. 'openai'. */
  @column()
  declare type: string

  @column()
  declare name: string

  @column({ serializeAs: null })
  declare iv: string

  @column({ serializeAs: null })
  declare data: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
