import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonText } from '#models/json_text'

/** What happened while a block ran for a result. */
export default class ResultLog extends BaseModel {
  static table = 'result_logs'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare resultId: string

  @column()
  declare status: 'success' | 'info' | 'error'

  @column()
  declare description: string

  @column(jsonText)
  declare details: unknown

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
