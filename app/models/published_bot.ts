import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import { jsonText } from '#models/json_text'
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
}
