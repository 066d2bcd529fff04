import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

const decimal = { consume: (value: unknown) => Number(value) }

/** How many tokens one AI credit buys with a model (AI-model price record). */
export default class AiModelPrice extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare model: string

  @column(decimal)
  declare inputToken: number

  @column(decimal)
  declare outputToken: number

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
