import { DateTime } from 'luxon'
import { belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import Workspace from '#models/workspace'
import type { WorkspaceRole } from '#shared/workspace_roles'

export default class WorkspaceInvitation extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare email: string

  @column()
  declare role: WorkspaceRole

  @column()
  declare createdBy: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @belongsTo(() => Workspace)
  declare workspace: BelongsTo<typeof Workspace>
}
