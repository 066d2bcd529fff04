import { DateTime } from 'luxon'
import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'
import Workspace from '#models/workspace'
import type { WorkspaceRole } from '#shared/workspace_roles'

export default class WorkspaceMember extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare workspaceId: string

  @column()
  declare userId: string

  @column()
  declare role: WorkspaceRole

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  @belongsTo(() => Workspace)
  declare workspace: BelongsTo<typeof Workspace>
}
