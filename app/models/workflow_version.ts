import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import { jsonText } from '#models/json_text'
import type { WorkflowEditor, WorkflowSnapshot } from '#shared/workflow/types'

/** One entry of a workflow's history (spec 01 "Workflow history"). */
export default class WorkflowVersion extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workflowId: string

  /** 'Initial Version', then 'Version N'. */
  @column()
  declare versionName: string

  @column(jsonText)
  declare workflow: WorkflowSnapshot

  @column()
  declare userId: string | null

  @column()
  declare updatedBy: WorkflowEditor

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
