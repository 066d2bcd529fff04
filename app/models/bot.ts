import { DateTime } from 'luxon'
import { afterDelete, afterSave, column, hasOne } from '@adonisjs/lucid/orm'
import type { HasOne } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import PublishedBot from '#models/published_bot'
import { jsonText } from '#models/json_text'
import { forgetPublishedBot } from '#services/chat/bot_cache'
import type { BotEvent, BotSettings, BotTheme, Edge, Group, Variable } from '#shared/bot/types'

export default class Bot extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare folderId: string | null

  @column()
  declare createdBy: string | null

  @column()
  declare name: string

  @column()
  declare icon: string | null

  @column()
  declare version: string

  /** Raised by every write of the content (docs/editor.md "Saving from two places"). */
  @column()
  declare revision: number

  @column()
  declare publicId: string | null

  @column()
  declare customDomain: string | null

  /** When the owner proved control of the custom domain's host; null while pending. */
  @column.dateTime()
  declare customDomainVerifiedAt: DateTime | null

  @column(jsonText)
  declare groups: Group[]

  @column(jsonText)
  declare events: BotEvent[]

  @column(jsonText)
  declare edges: Edge[]

  @column(jsonText)
  declare variables: Variable[]

  @column(jsonText)
  declare theme: BotTheme

  @column(jsonText)
  declare settings: BotSettings

  @column()
  declare selectedThemeTemplateId: string | null

  @column(jsonText)
  declare resultsTablePreferences: Record<string, unknown> | null

  @column()
  declare whatsappCredentialsId: string | null

  @column()
  declare riskLevel: string | null

  @column({ consume: Boolean })
  declare isArchived: boolean

  @column({ consume: Boolean })
  declare isClosed: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @hasOne(() => PublishedBot)
  declare published: HasOne<typeof PublishedBot>

  /** The chat engine's cache of published bots must not serve a stale copy. */
  @afterSave()
  @afterDelete()
  static forgetCachedCopy(bot: Bot) {
    forgetPublishedBot(bot.id)
  }
}
