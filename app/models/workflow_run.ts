import { DateTime } from 'luxon'
import { column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import WorkflowRunNode from '#models/workflow_run_node'
import { jsonText } from '#models/json_text'
import type { ExecutableWorkflow, RunStatus, RunTrigger } from '#shared/workflow/types'

/** One execution of a workflow (issue 6 "Running"); `state` lets a parked run resume. */
export default class WorkflowRun extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workflowId: string

  @column()
  declare status: RunStatus

  @column()
  declare trigger: RunTrigger

  @column(jsonText)
  declare input: unknown

  @column(jsonText)
  declare output: unknown

  /** The executor's RunState (app/engine/workflow/state.ts). */
  @column({ ...jsonText, serializeAs: null })
  declare state: unknown

  @column()
  declare error: string | null

  /** A test run of the draft (docs/workflows.md "Test runs"): kept out of the run statistics. */
  @column({ consume: Boolean })
  declare isTest: boolean

  /** A test run's own compiled draft; null: the run uses the workflow's published version. */
  @column({ ...jsonText, serializeAs: null })
  declare executableWorkflow: ExecutableWorkflow | null

  @column.dateTime()
  declare resumeAt: DateTime | null

  @column()
  declare waitingForWebhookNode: string | null

  @column.dateTime()
  declare startedAt: DateTime | null

  @column.dateTime()
  declare finishedAt: DateTime | null

  @column()
  declare durationMs: number | null

  /** The process executing the run (docs/queue.md, "Leases"); null when none holds it. */
  @column({ serializeAs: null })
  declare claimedBy: string | null

  /** Renewed while its process lives; past it, the run goes back to the queue. */
  @column.dateTime({ serializeAs: null })
  declare leaseExpiresAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @hasMany(() => WorkflowRunNode, { foreignKey: 'runId' })
  declare nodes: HasMany<typeof WorkflowRunNode>
}
