import { DateTime } from 'luxon'
import { belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import User from '#models/user'
import { jsonText } from '#models/json_text'
import type { BotSnapshot } from '#shared/bot/types'
import type { VersionKind } from '#shared/history/types'

/** One entry of a bot's history (docs/workflows.md "History": the same rules as workflows). */
export default class BotVersion extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare botId: string

  @column()
  declare versionName: string

  @column()
  declare kind: VersionKind

  @column(jsonText)
  declare content: BotSnapshot

  @column()
  declare userId: string | null

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
