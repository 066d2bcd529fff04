import { DateTime } from 'luxon'
import { BaseModel, afterDelete, afterSave, column } from '@adonisjs/lucid/orm'
import { capabilitiesChangedAfterWrite } from '#services/capability_stamp'
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

  /** Rows written directly (seeders, tests) reach every process's cache too. */
  @afterSave()
  @afterDelete()
  static async switchesChanged(setting: PluginPlanSetting) {
    await capabilitiesChangedAfterWrite(setting)
  }
}
