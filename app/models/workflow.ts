import { DateTime } from 'luxon'
import { column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import WorkflowVersion from '#models/workflow_version'
import { jsonText } from '#models/json_text'
import type {
  ExecutableWorkflow,
  WorkflowBlock,
  WorkflowEdge,
  WorkflowEditor,
  WorkflowSettings,
  WorkflowStatus,
  WorkflowVariable,
} from '#shared/workflow/types'

/** A workflow's draft plus what publishing compiled. */
export default class Workflow extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare createdBy: string | null

  @column()
  declare name: string

  @column()
  declare description: string | null

  @column()
  declare icon: string | null

  @column()
  declare version: number

  /** Raised by every write of the content (docs/editor.md "Saving from two places"). */
  @column()
  declare revision: number

  @column()
  declare status: WorkflowStatus

  @column({ consume: Boolean })
  declare isActive: boolean

  @column(jsonText)
  declare blocks: WorkflowBlock[]

  @column(jsonText)
  declare edges: WorkflowEdge[]

  @column(jsonText)
  declare variables: WorkflowVariable[]

  @column(jsonText)
  declare settings: WorkflowSettings

  @column(jsonText)
  declare executableWorkflow: ExecutableWorkflow | null

  @column({ consume: Boolean })
  declare isArchived: boolean

  @column()
  declare updatedBy: WorkflowEditor | null

  @column({ consume: Boolean })
  declare isModifiedByAi: boolean

  @column.dateTime()
  declare publishedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @hasMany(() => WorkflowVersion)
  declare versions: HasMany<typeof WorkflowVersion>
}
