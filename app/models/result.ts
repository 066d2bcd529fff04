import { DateTime } from 'luxon'
import { column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import Answer from '#models/answer'
import ResultLog from '#models/result_log'
import { jsonText } from '#models/json_text'

export interface ResultVariable {
  id: string
  name: string
  value: unknown
}

/** One visitor's run of a bot. Written by the chat service. */
export default class Result extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare botId: string

  @column(jsonText)
  declare variables: ResultVariable[]

  @column({ consume: Boolean })
  declare hasStarted: boolean

  @column({ consume: Boolean })
  declare isCompleted: boolean

  @column({ consume: Boolean })
  declare isArchived: boolean

  @column()
  declare lastChatSessionId: string | null

  @column(jsonText)
  declare location: Record<string, unknown> | null

  @column(jsonText)
  declare deviceDetails: Record<string, unknown> | null

  @column()
  declare uniqueUserId: string | null

  /** The language the chat ran in, for bots in several languages (else null). */
  @column()
  declare language: string | null

  @hasMany(() => Answer)
  declare answers: HasMany<typeof Answer>

  @hasMany(() => ResultLog)
  declare logs: HasMany<typeof ResultLog>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
