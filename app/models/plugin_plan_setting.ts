import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { PlanName } from '#shared/plans'

export default class PluginPlanSetting extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare pluginId: string

  @column()
  declare plan: PlanName

  @column({ consume: Boolean })
  declare enabled: boolean

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
