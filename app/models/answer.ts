import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonText } from '#models/json_text'

/** A visitor's answer to one input block. */
export default class Answer extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare resultId: string

  @column()
  declare blockId: string

  @column()
  declare groupId: string

  @column()
  declare variableId: string | null

  @column()
  declare content: string

  @column(jsonText)
  declare attachedFileUrls: string[] | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
