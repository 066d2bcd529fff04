import { DateTime } from 'luxon'
import { belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'
import BaseModelWithId from '#models/base_model_with_id'
import { jsonText } from '#models/json_text'
import type { WorkflowEditor, WorkflowSnapshot } from '#shared/workflow/types'
import type { VersionKind } from '#shared/history/types'

/** One entry of a workflow's history. */
export default class WorkflowVersion extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workflowId: string

  /** 'Initial Version', then 'Version N', or the name a builder gave it. */
  @column()
  declare versionName: string

  /** What made it; only the open 'draft' version changes afterwards (docs/workflows.md). */
  @column()
  declare kind: VersionKind

  @column(jsonText)
  declare workflow: WorkflowSnapshot

  @column()
  declare userId: string | null

  @column()
  declare updatedBy: WorkflowEditor

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
