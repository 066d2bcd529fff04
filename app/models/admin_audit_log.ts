import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonColumn } from '#models/plan'
import type { AuditAction, AuditTargetType } from '#shared/plan_admin'

/** One change an instance admin made to an account or a workspace (docs/architecture.md). */
export default class AdminAuditLog extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare actorId: string | null

  @column()
  declare actorLabel: string

  @column()
  declare action: AuditAction

  @column()
  declare targetType: AuditTargetType

  @column()
  declare targetId: string

  @column()
  declare targetLabel: string

  @column(jsonColumn)
  declare details: Record<string, unknown>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
