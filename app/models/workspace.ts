import { DateTime } from 'luxon'
import { afterUpdate, beforeUpdate, belongsTo, column, hasMany } from '@adonisjs/lucid/orm'
import type { BelongsTo, HasMany } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import User from '#models/user'
import WorkspaceMember from '#models/workspace_member'
import WorkspaceInvitation from '#models/workspace_invitation'
import type { PlanName } from '#shared/plans'
import { capabilitiesChangedAfterWrite } from '#services/capability_stamp'

export default class Workspace extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare name: string

  @column()
  declare icon: string | null

  @column()
  declare plan: PlanName

  @column.dateTime()
  declare planEndsAt: DateTime | null

  @column()
  declare createdBy: string | null

  @column()
  declare stripeId: string | null

  @column({ consume: Boolean })
  declare isSuspended: boolean

  @column({ consume: Boolean })
  declare isPastDue: boolean

  @column({ consume: Boolean })
  declare isVerified: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @belongsTo(() => User, { foreignKey: 'createdBy' })
  declare creator: BelongsTo<typeof User>

  @hasMany(() => WorkspaceMember)
  declare members: HasMany<typeof WorkspaceMember>

  @hasMany(() => WorkspaceInvitation)
  declare invitations: HasMany<typeof WorkspaceInvitation>

  /** Set between the update hooks: the plan that applies in this workspace changed. */
  private planChanged = false

  @beforeUpdate()
  static notePlanChange(workspace: Workspace) {
    workspace.planChanged = 'plan' in workspace.$dirty || 'planEndsAt' in workspace.$dirty
  }

  /** Runtimes cache the plan of a workspace (planFor); a new plan must reach them at once. */
  @afterUpdate()
  static async announcePlanChange(workspace: Workspace) {
    if (!workspace.planChanged) return
    workspace.planChanged = false
    await capabilitiesChangedAfterWrite(workspace)
  }
}
