import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { PlanFeatures, PlanLimits, PlanName } from '#shared/plans'

const json = {
  prepare: (value: unknown) => JSON.stringify(value),
  consume: (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value),
}

export default class Plan extends BaseModel {
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare name: PlanName

  @column()
  declare label: string

  @column()
  declare priceMonthly: number

  @column()
  declare duration: string

  @column(json)
  declare limits: PlanLimits

  @column(json)
  declare features: PlanFeatures

  @column()
  declare sortOrder: number

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}

export { json as jsonColumn }
