import db from '@adonisjs/lucid/services/db'
import WorkflowRun from '#models/workflow_run'
import { WorkflowGraph } from '#engine/workflow/graph'
import type { ExecutorWorkflow } from '#engine/workflow/ports'
import { STAMP_SUBQUERY } from '#services/capability_stamp'
import { hasPreparedStatements, runPrepared } from '#services/prepared_statements'
import type {
  ExecutableWorkflow,
  RunStatus,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'

/**
 * What a run reads of its workflow: the columns it depends on, the published version parsed
 * and compiled once per process, and the settings (cap, timeout, retention) with their
 * defaults. Every part of a run (claims, records, recovery, pruning) reads the workflow here.
 */

/** What a run needs of a workflow. */
export interface RunnableWorkflow {
  id: string
  workspaceId: string
  createdBy: string | null
  name?: string
  /** Triggers other than manual ones only start runs of active workflows. */
  isActive?: boolean
  /** The draft's status: DRAFT while it has unpublished changes (runs use the published version). */
  status?: string
  executableWorkflow: ExecutableWorkflow | null
  /** The executable's graph, when the loader had it compiled already. */
  graph?: WorkflowGraph
  settings: WorkflowSettings | null
  variables: WorkflowVariable[] | null
  /**
   * The capability stamp read along with the workflow (capability_stamp.ts): the run's plan
   * checks use it rather than reading it again, per run and not per node.
   */
  capabilityStamp?: number | string | null
}

export type WorkflowLoader = (id: string) => Promise<RunnableWorkflow | null>

/** The queue job that runs a queued run (jobs.ts defines it). */
export const RUN_JOB_NAME = 'workflow.run'

export const DEFAULT_CONCURRENCY = 5

export const DEFAULT_TIMEOUT_SECONDS = 300

export const DEFAULT_RETENTION_DAYS = 30

export const FINAL_STATUSES: RunStatus[] = ['success', 'error', 'cancelled']

/** Run texts stored in records and mailed; node texts come from the runners. */
export const RUN_TEXTS = {
  notPublished: 'The workflow is not published',
  deleted: 'The workflow no longer exists',
  crashed: 'The run stopped unexpectedly',
}

/** A JSON column's value (a string on SQLite and MySQL, parsed already on PostgreSQL). */
export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback
  if (typeof value !== 'string') return value as T
  try {
    return JSON.parse(value) as T
  } catch {
    return fallback
  }
}

/** What runs read of a workflow (not the editor's graph, history or the like). */
const WORKFLOW_COLUMNS = [
  'id',
  'workspace_id',
  'created_by',
  'name',
  'is_active',
  'status',
  'executable_workflow',
  'settings',
  'variables',
]

/** The capability stamp as a column of a run's first read: no read of its own. */
const STAMP_COLUMN = `${STAMP_SUBQUERY} as capability_stamp`

const READ_WORKFLOW =
  `select ${WORKFLOW_COLUMNS.map((c) => `"${c}"`).join(', ')}, ${STAMP_COLUMN} ` +
  'from "workflows" where "id" = ? limit 1'

/**
 * Reads the workflow straight from its table, so runs depend on its columns only; the
 * capability stamp comes along, for the run's plan checks.
 */
export async function loadWorkflow(id: string): Promise<RunnableWorkflow | null> {
  if (hasPreparedStatements()) {
    // Every webhook call reads it: a prepared statement, without knex's query compiler.
    const [found] = await runPrepared(READ_WORKFLOW, [id])
    return found ? runnableOf(found) : null
  }
  const row = await db
    .from('workflows')
    .where('id', id)
    .select(...WORKFLOW_COLUMNS, db.raw(STAMP_COLUMN))
    .first()
  return row ? runnableOf(row) : null
}

const READ_RUN_AND_WORKFLOW =
  `select "workflow_runs".*, ${WORKFLOW_COLUMNS.map((c) => `"workflows"."${c}" as "workflow__${c}"`).join(', ')}, ` +
  `${STAMP_SUBQUERY} as "workflow__capability_stamp" from "workflow_runs" ` +
  'left join "workflows" on "workflows"."id" = "workflow_runs"."workflow_id" ' +
  'where "workflow_runs"."id" = ? limit 1'

/** A run's record and its workflow in one query (what a run job reads first). */
export async function loadRunAndWorkflow(runId: string) {
  const row = hasPreparedStatements()
    ? (await runPrepared(READ_RUN_AND_WORKFLOW, [runId]))[0]
    : await db
        .from('workflow_runs')
        .leftJoin('workflows', 'workflows.id', 'workflow_runs.workflow_id')
        .where('workflow_runs.id', runId)
        .select(
          'workflow_runs.*',
          ...WORKFLOW_COLUMNS.map((c) => `workflows.${c} as workflow__${c}`),
          db.raw(`${STAMP_SUBQUERY} as workflow__capability_stamp`)
        )
        .first()
  if (!row) return null
  const runColumns: Record<string, unknown> = {}
  const workflowColumns: Record<string, any> = {}
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('workflow__')) workflowColumns[key.slice('workflow__'.length)] = value
    else runColumns[key] = value
  }
  return {
    run: WorkflowRun.$createFromAdapterResult(runColumns)!,
    workflow: workflowColumns.id ? runnableOf(workflowColumns) : null,
  }
}

/**
 * Published workflows as runs use them, per workflow: the parsed executable and its graph,
 * kept while the stored text is the same (publishing changes it, in any process), so a run
 * of an unchanged workflow neither parses nor compiles it again. Read-only once cached.
 */
const compiled = new Map<
  string,
  { text: string; executable: ExecutableWorkflow; graph: WorkflowGraph }
>()

const MAX_COMPILED = 1000

function compiledOf(id: string, stored: unknown) {
  if (typeof stored !== 'string') {
    const executable = parseJson<ExecutableWorkflow | null>(stored, null)
    return executable ? { executable, graph: undefined } : null
  }
  const known = compiled.get(id)
  if (known?.text === stored) return known
  const executable = parseJson<ExecutableWorkflow | null>(stored, null)
  if (!executable) return null
  const entry = { text: stored, executable, graph: new WorkflowGraph(executable) }
  // Oldest first out: a Map iterates in insertion order.
  compiled.delete(id)
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!)
  compiled.set(id, entry)
  return entry
}

function runnableOf(row: Record<string, any>): RunnableWorkflow {
  const published = compiledOf(row.id, row.executable_workflow)
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    createdBy: row.created_by ?? null,
    name: row.name,
    isActive: Boolean(row.is_active),
    status: row.status,
    executableWorkflow: published?.executable ?? null,
    graph: published?.graph,
    settings: parseJson<WorkflowSettings>(row.settings, {}),
    // What was published, not the draft being edited (docs/workflows.md "Live version and draft").
    variables: published?.executable.variables ?? parseJson<WorkflowVariable[]>(row.variables, []),
    capabilityStamp: row.capability_stamp,
  }
}

function positive(value: unknown, fallback: number) {
  const number = Number(value)
  return Number.isFinite(number) && number > 0 ? number : fallback
}

export function concurrencyOf(settings: WorkflowSettings | null | undefined) {
  return Math.max(1, Math.floor(positive(settings?.concurrency, DEFAULT_CONCURRENCY)))
}

export function timeoutMsOf(settings: WorkflowSettings | null | undefined) {
  return positive(settings?.timeout, DEFAULT_TIMEOUT_SECONDS) * 1000
}

export function retentionDaysOf(settings: WorkflowSettings | null | undefined) {
  return positive(settings?.logging?.retentionDays, DEFAULT_RETENTION_DAYS)
}

export function executorWorkflow(workflow: RunnableWorkflow): ExecutorWorkflow {
  return {
    id: workflow.id,
    workspaceId: workflow.workspaceId,
    ownerId: workflow.createdBy,
    executable: workflow.executableWorkflow!,
    settings: workflow.settings ?? {},
    variables: workflow.variables ?? [],
  }
}

/** The workflow as a run sees it: a test run's own compiled draft, else the published version. */
export function forRun(run: WorkflowRun, workflow: RunnableWorkflow): RunnableWorkflow {
  const executable = run.executableWorkflow
  if (!executable) return workflow
  return {
    ...workflow,
    executableWorkflow: executable,
    graph: undefined,
    variables: executable.variables ?? workflow.variables,
  }
}
