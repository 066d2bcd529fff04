import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import { jsonText } from '#models/json_text'
import type { BotTheme } from '#shared/bot/types'

export default class ThemeTemplate extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare name: string

  @column(jsonText)
  declare theme: BotTheme

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
