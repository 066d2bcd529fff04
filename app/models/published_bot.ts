import { DateTime } from 'luxon'
import { afterDelete, afterSave, column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import { jsonText } from '#models/json_text'
import { forgetPublishedBot } from '#services/chat/bot_cache'
import type { BotEvent, BotSettings, BotTheme, Edge, Group, Variable } from '#shared/bot/types'

export default class PublishedBot extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare botId: string

  @column()
  declare version: string

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

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The chat engine's cache of published bots must not serve a stale copy. */
  @afterSave()
  @afterDelete()
  static forgetCachedCopy(published: PublishedBot) {
    forgetPublishedBot(published.botId)
  }
}
