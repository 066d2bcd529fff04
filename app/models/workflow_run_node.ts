import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonText } from '#models/json_text'
import type { LogEntry } from '#plugins/define_plugin'
import type { NodeRunStatus } from '#shared/workflow/types'

/** One visit of a node during a run: a node in a loop has one record per visit. */
export default class WorkflowRunNode extends BaseModel {
  static table = 'workflow_run_nodes'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare runId: string

  @column()
  declare nodeId: string

  @column()
  declare nodeType: string

  @column()
  declare status: NodeRunStatus

  @column(jsonText)
  declare input: unknown

  @column(jsonText)
  declare output: unknown

  @column(jsonText)
  declare logs: LogEntry[] | null

  @column()
  declare attempts: number

  @column.dateTime()
  declare startedAt: DateTime | null

  @column.dateTime()
  declare finishedAt: DateTime | null

  @column()
  declare durationMs: number | null
}
