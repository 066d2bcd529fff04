import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import type { UserMode } from '#shared/workspace_roles'

/** Full access, Can edit, Can view. */
export const BOT_INVITATION_TYPES = ['FULL_ACCESS', 'WRITE', 'READ'] as const
export type BotInvitationType = (typeof BOT_INVITATION_TYPES)[number]

export function userModeForInvitation(type: BotInvitationType): UserMode {
  return type === 'READ' ? 'read' : 'write'
}

export default class BotInvitation extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare botId: string

  @column()
  declare email: string

  @column()
  declare type: BotInvitationType

  @column()
  declare createdBy: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
