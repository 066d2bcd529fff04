import { DateTime } from 'luxon'
import { BaseModel, afterSave, column } from '@adonisjs/lucid/orm'
import { capabilitiesChangedAfterWrite } from '#services/capability_stamp'
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

  /** Limits, features and plugin access derive from plans in every process. */
  @afterSave()
  static async plansChanged(plan: Plan) {
    await capabilitiesChangedAfterWrite(plan)
  }
}

export { json as jsonColumn }
