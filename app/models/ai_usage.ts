import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

const decimal = { consume: (value: unknown) => Number(value) }

/** One AI provider call and the credits it cost (usage record). */
export default class AiUsage extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare accountId: string

  @column()
  declare workspaceId: string | null

  @column()
  declare model: string | null

  @column()
  declare source: string | null

  @column()
  declare inputTokens: number

  @column()
  declare outputTokens: number

  @column(decimal)
  declare creditsUsed: number

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
