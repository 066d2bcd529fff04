import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { RawQueryBindings } from '@adonisjs/lucid/types/querybuilder'
import logger from '@adonisjs/core/services/logger'
import { appUrl } from '#config/app'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { jsonText } from '#models/json_text'
import { pluginRegistry } from '#services/plugin_registry'
import { newId } from '#services/ids'
import { queueDriver } from '#queue/queue'
import { InProcessDriver } from '#queue/in_process_driver'
import { sendMail } from '#services/mailer'
import { NotWaitingError, WorkflowExecutor, type ExecutionResult } from '#engine/workflow/executor'
import { WorkflowGraph } from '#engine/workflow/graph'
import type { ExecutorEvent, ExecutorWorkflow, NodeEvent } from '#engine/workflow/ports'
import { parseState } from '#engine/workflow/state'
import type { PluginRegistry } from '#plugins/registry'
import type {
  ExecutableWorkflow,
  RunStatus,
  RunTrigger,
  WebhookResponse,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'
import { workflowPorts } from './executor_ports.js'
import { loopMaxIterations } from '#services/loop_limit'
import { capabilityTurn, STAMP_SUBQUERY } from '#services/capability_stamp'
import { emitRunEvent, emitRunResponse } from './run_events.js'
import { isTransientDatabaseError } from './transient_errors.js'
import {
  belowCap,
  claimColumns,
  claimSlot,
  dropLease,
  holdLease,
  LEASE_MS,
  LEASE_OWNER,
  reclaimExpired,
  RELEASED,
  stamp,
  type SlotBook,
} from './run_leases.js'

/**
 * Runs of workflows (issue 6 "Running"): the run record, the executor around it, and what
 * the executor leaves to its caller: node records, live events, waits, the failure e-mail,
 * the concurrency cap and log retention. Explicit arguments only (no HTTP context), so
 * queue workers and ace commands call it as controllers do. Queue jobs are in jobs.ts.
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

export interface RunOutcome {
  runId: string
  status: RunStatus
  /** Left queued: the workflow has its maximum of runs going on. Dispatch it again later. */
  deferred?: boolean
  /**
   * Another process holds the run (its lease runs until this time): try again then, it may
   * have died. Set with `deferred`.
   */
  busyUntil?: string
  /** resumeRun found nothing to resume (not waiting, or not for this node, or not due yet). */
  notResumed?: boolean
  output?: unknown
  error?: string | null
  resumeAt?: string | null
  waitingForWebhookNode?: string | null
  response?: WebhookResponse
}

export interface ExecuteOptions {
  loadWorkflow?: WorkflowLoader
}

/** The queue job that runs a queued run (jobs.ts defines it). */
export const RUN_JOB_NAME = 'workflow.run'
export const DEFAULT_CONCURRENCY = 5
export const DEFAULT_TIMEOUT_SECONDS = 300
export const DEFAULT_RETENTION_DAYS = 30
const FINAL_STATUSES: RunStatus[] = ['success', 'error', 'cancelled']

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

/**
 * Reads the workflow straight from its table, so runs depend on its columns only; the
 * capability stamp comes along, for the run's plan checks.
 */
export async function loadWorkflow(id: string): Promise<RunnableWorkflow | null> {
  const row = await db
    .from('workflows')
    .where('id', id)
    .select(...WORKFLOW_COLUMNS, db.raw(STAMP_COLUMN))
    .first()
  return row ? runnableOf(row) : null
}

/** A run's record and its workflow in one query (what a run job reads first). */
async function loadRunAndWorkflow(runId: string) {
  const row = await db
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

function executorWorkflow(workflow: RunnableWorkflow): ExecutorWorkflow {
  return {
    id: workflow.id,
    workspaceId: workflow.workspaceId,
    ownerId: workflow.createdBy,
    executable: workflow.executableWorkflow!,
    settings: workflow.settings ?? {},
    variables: workflow.variables ?? [],
  }
}

/**
 * Runs created by this process for its own in-process queue: the run job takes the record
 * and the workflow from here rather than reading back what was written a moment ago.
 * Bounded: runs whose job never comes (a queue closed meanwhile) are forgotten oldest first.
 */
const handOffs = new Map<
  string,
  { run: WorkflowRun; workflow: RunnableWorkflow; claimed?: boolean }
>()
const MAX_HAND_OFFS = 10_000

/** Runs inserted claimed (or being inserted) whose job has not started yet. */
let claimsPending = 0

function takeHandOff(runId: string) {
  const handed = handOffs.get(runId)
  handOffs.delete(runId)
  if (handed?.claimed) claimsPending--
  return handed
}

/** A hand-off whose job never came: its claim is left to expire, and the run to be taken back. */
function forgetHandOff(runId: string) {
  if (takeHandOff(runId)?.claimed) dropLease(runId)
}

/**
 * A queued run of a published workflow; dispatch 'workflow.run' with its id after this.
 * `handOff`: the job runs in this process (in-process driver) and may use what was read;
 * dispatch it right away: when the queue would start it at once, the run may be inserted
 * already claimed (insertClaimed).
 */
export async function createRun(
  workflow: RunnableWorkflow,
  trigger: RunTrigger,
  input: unknown,
  options: { handOff?: boolean; test?: ExecutableWorkflow } = {}
): Promise<string> {
  if (options.test) return createTestRun(workflow, trigger, input, options.test)
  if (!workflow.executableWorkflow) throw new Error(RUN_TEXTS.notPublished)
  let claimed: WorkflowRun | null = null
  if (options.handOff && freeSlots() > claimsPending) {
    // The slot is reserved while the insert runs, so concurrent calls do not all count on it.
    claimsPending++
    claimed = await insertClaimed(workflow, trigger, input).catch((error) => {
      claimsPending--
      throw error
    })
    if (!claimed) claimsPending--
  }
  const run =
    claimed ??
    (await WorkflowRun.create({
      workflowId: workflow.id,
      status: 'queued',
      trigger,
      input: input ?? null,
    }))
  if (options.handOff) {
    if (handOffs.size >= MAX_HAND_OFFS) forgetHandOff(handOffs.keys().next().value!)
    handOffs.set(run.id, { run, workflow, claimed: Boolean(claimed) })
  }
  emitRunEvent({ runId: run.id, workflowId: workflow.id, nodeId: null, status: 'queued' })
  return run.id
}

/**
 * A test run of the draft: it keeps the draft as compiled now, so later edits (and the
 * published version) do not change it, even when it waits and resumes later.
 */
async function createTestRun(
  workflow: RunnableWorkflow,
  trigger: RunTrigger,
  input: unknown,
  executable: ExecutableWorkflow
) {
  const run = await WorkflowRun.create({
    workflowId: workflow.id,
    status: 'queued',
    trigger,
    input: input ?? null,
    isTest: true,
    executableWorkflow: executable,
  })
  emitRunEvent({ runId: run.id, workflowId: workflow.id, nodeId: null, status: 'queued' })
  return run.id
}

/** The workflow as a run sees it: a test run's own compiled draft, else the published version. */
function forRun(run: WorkflowRun, workflow: RunnableWorkflow): RunnableWorkflow {
  const executable = run.executableWorkflow
  if (!executable) return workflow
  return {
    ...workflow,
    executableWorkflow: executable,
    graph: undefined,
    variables: executable.variables ?? workflow.variables,
  }
}

/** Run jobs the in-process queue would start at once (PostgreSQL only, see insertClaimed). */
function freeSlots() {
  const driver = queueDriver()
  if (!(driver instanceof InProcessDriver) || db.connection().dialect.name !== 'postgres') return 0
  return driver.freeSlots(RUN_JOB_NAME)
}

/**
 * A run inserted already claimed (running) with a free slot of its workflow, in one
 * statement that also checks the count of its running runs as the claim of a queued run
 * does; null at the cap (insert it queued). Only when this process's queue starts the run's
 * job at once: a claimed run waiting in memory would count against the cap, and a restart
 * would leave it to the lease check.
 * PostgreSQL: INSERT ... SELECT ... WHERE without FROM, and its affected-row count.
 */
async function insertClaimed(workflow: RunnableWorkflow, trigger: RunTrigger, input: unknown) {
  const now = DateTime.now()
  const id = newId()
  const columns: Record<string, unknown> = {
    id,
    workflow_id: workflow.id,
    status: 'running',
    trigger,
    input: jsonText.prepare(input ?? null),
    started_at: stamp(now),
    created_at: stamp(now),
    updated_at: stamp(now),
    ...claimColumns(now.toJSDate()),
  }
  const cap = concurrencyOf(workflow.settings)
  const inserted = await claimSlot(workflow.id, id, cap, async (slot) => {
    columns.slot = slot
    const names = Object.keys(columns)
    const result = await db.rawQuery(
      `insert into workflow_runs (${names.join(', ')}) select ${names.map(() => '?').join(', ')} ` +
        'where (select count(*) from workflow_runs where workflow_id = ? and status = ?) < ?',
      [...Object.values(columns), workflow.id, 'running', cap] as RawQueryBindings
    )
    return Number(result?.rowCount ?? 0) === 1
  })
  if (!inserted) return null
  holdLease(id)
  // As the driver returns rows: timestamps as dates.
  const at = now.toJSDate()
  return WorkflowRun.$createFromAdapterResult({
    ...columns,
    started_at: at,
    created_at: at,
    updated_at: at,
    lease_expires_at: new Date(at.getTime() + LEASE_MS),
  })!
}

// ---------------------------------------------------------------------------
// Records of one executor call
// ---------------------------------------------------------------------------

/** A node record as it is written: one row per visit of a node. */
function nodeColumns(runId: string, event: NodeEvent) {
  const columns: Record<string, unknown> = {
    run_id: runId,
    node_id: event.nodeId,
    node_type: event.nodeType,
    status: event.status,
    attempts: event.attempts,
    started_at: stamp(new Date(event.startedAt)),
    finished_at: event.finishedAt ? stamp(new Date(event.finishedAt)) : null,
    duration_ms: event.durationMs ?? null,
  }
  if (event.input !== undefined) columns.input = jsonText.prepare(event.input)
  if (event.output !== undefined) columns.output = jsonText.prepare(event.output)
  if (event.logs !== undefined) columns.logs = jsonText.prepare(event.logs)
  return columns
}

/** Rows of one multi-row insert all name the same columns. */
function sameColumns(rows: Record<string, unknown>[]) {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  return rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key] ?? null])))
}

/**
 * The run's record and new node records in one statement on PostgreSQL (a statement is
 * atomic there, as the transaction is elsewhere): two round trips fewer at the end of a run.
 */
async function updateRunWithNodes(
  runId: string,
  columns: Record<string, unknown>,
  nodes: Record<string, unknown>[]
) {
  const client = db.connection()
  const update = client
    .knexQuery()
    .table('workflow_runs')
    .where('id', runId)
    .where('claimed_by', LEASE_OWNER)
    .update(columns)
  if (nodes.length === 0) return update
  const insert = client.knexQuery().table('workflow_run_nodes').insert(sameColumns(nodes))
  const first = insert.toSQL()
  const second = update.toSQL()
  const bindings = [...first.bindings, ...second.bindings] as RawQueryBindings
  return client.rawQuery(`with nodes as (${first.sql}) ${second.sql}`, bindings)
}

/** A node record this process has not written yet (the latest event of its visit). */
interface PendingNode {
  event: NodeEvent
  /** What the earlier events of the visit said that the latest one leaves out. */
  input?: unknown
}

interface OpenRow {
  id: number
  nodeId: string
  status: string
}

/**
 * Records of one executor call. Writes are batched (issue 6 "Performance"): node records and
 * the checkpoint are kept in memory and written in one transaction when a node that reaches
 * outside the run is about to start (so a crash never runs it twice without a record of it
 * having started, nor re-runs anything but replayable nodes and the node that was cut off),
 * and with the run's own record when the call ends (settle). Live events go out at once.
 */
class RunRecorder {
  /** Stored node records of this call, per execution, so later events update their own row. */
  private rows = new Map<string, number>()
  private pending = new Map<string, PendingNode>()
  /** The last checkpoint not written yet, serialised when it was taken. */
  private checkpoint: string | null = null
  /** Records a parked or cut-off visit left open (resume, or going on after a crash). */
  private open: Promise<OpenRow[]> | null

  /** Some node may reach outside: only then is a checkpoint written before the run's end. */
  private reachesOutside: boolean

  constructor(
    readonly run: WorkflowRun,
    private registry: PluginRegistry,
    options: { mayHaveOpenRows: boolean; workflow: RunnableWorkflow }
  ) {
    this.open = options.mayHaveOpenRows ? this.loadOpenRows() : null
    this.reachesOutside = (options.workflow.executableWorkflow?.blocks ?? []).some(
      (block) => !registry.get(block.type)?.replayable
    )
  }

  private async loadOpenRows(): Promise<OpenRow[]> {
    // One transaction, so both statements go through one connection: the recorder's first
    // flush may be waiting for the pool meanwhile (SQLite has one connection).
    const rows = await db.transaction(async (trx) => {
      // A record still "running" belongs to an attempt that was cut off (its process died or
      // stopped mid-node): it stays in the history as such, and the node's next attempt gets
      // a record of its own.
      await trx
        .from('workflow_run_nodes')
        .where('run_id', this.run.id)
        .where('status', 'running')
        .update({ status: 'interrupted', finished_at: stamp(new Date()) })
      return trx
        .from('workflow_run_nodes')
        .where('run_id', this.run.id)
        .where('status', 'waiting')
        .orderBy('id', 'desc')
        .select('id', 'node_id', 'status')
    })
    return rows.map((row) => ({ id: Number(row.id), nodeId: row.node_id, status: row.status }))
  }

  handle = async (event: ExecutorEvent) => {
    if (event.type === 'checkpoint') {
      // Now: the executor goes on changing the same state object. Not at all when nothing
      // will be flushed before the end (settle writes the final state).
      if (this.reachesOutside) this.checkpoint = JSON.stringify(event.state)
      return
    }
    if (event.type === 'response') {
      emitRunResponse({ runId: this.run.id, nodeId: event.nodeId, response: event.response })
      return
    }
    const known = this.pending.get(event.executionId)
    this.pending.set(event.executionId, {
      event,
      input: event.input !== undefined ? event.input : known?.input,
    })
    emitRunEvent({
      runId: this.run.id,
      workflowId: this.run.workflowId,
      nodeId: event.nodeId,
      status: event.status,
      output: event.output,
    })
    if (event.status === 'running' && !this.registry.get(event.nodeType)?.replayable) {
      // It reaches outside: what ran before it, and that it started, are stored first.
      await db.transaction((trx) => this.flush(trx, { checkpoint: true }))
    }
  }

  /**
   * Writes the pending node records (and the checkpoint, unless the run's record is written
   * by the caller in the same transaction).
   */
  async flush(trx: TransactionClientContract, options: { checkpoint: boolean }) {
    const inserts: Record<string, unknown>[] = []
    const open = this.open ? await this.open : []
    for (const [executionId, { event, input }] of this.pending) {
      const columns = nodeColumns(this.run.id, { ...event, input })
      let id = this.rows.get(executionId)
      if (id === undefined) {
        // A visit a parked record stands for: the newest open one of the node. A new attempt
        // ('running') always gets its own record.
        const index =
          event.status === 'running' ? -1 : open.findIndex((row) => row.nodeId === event.nodeId)
        if (index >= 0) id = open.splice(index, 1)[0].id
      }
      if (id !== undefined) {
        await trx.from('workflow_run_nodes').where('id', id).update(columns)
        this.rows.set(executionId, id)
      } else if (event.status === 'running') {
        // Rows are listed by id: the ones before it go in first.
        await this.insertRows(trx, inserts.splice(0))
        // Its end comes later in this call: its row id is needed to update it.
        const row = await WorkflowRunNode.create(
          {
            runId: this.run.id,
            nodeId: event.nodeId,
            nodeType: event.nodeType,
            status: event.status,
            attempts: event.attempts,
            input: input ?? null,
            startedAt: DateTime.fromISO(event.startedAt),
          },
          { client: trx }
        )
        this.rows.set(executionId, row.id)
      } else {
        inserts.push(columns)
      }
    }
    await this.insertRows(trx, inserts)
    this.pending.clear()
    if (options.checkpoint && this.checkpoint !== null) {
      await trx
        .from('workflow_runs')
        .where('id', this.run.id)
        .update({ state: this.checkpoint, updated_at: stamp(new Date()) })
    }
    this.checkpoint = null
  }

  /**
   * Runs the executor; if it throws (the run then fails as a whole), the node records kept
   * in memory are still written, as they were node by node before batching.
   */
  async keepingRecords<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (this.pending.size > 0) {
        await db
          .transaction((trx) => this.flush(trx, { checkpoint: false }))
          .catch((flushError) =>
            logger.error({ err: flushError, runId: this.run.id }, 'workflow node records lost')
          )
      }
      throw error
    }
  }

  /**
   * The pending records when each of them is a new record of a finished visit (no open
   * record to update, no row id needed later): what the common end of a run writes.
   */
  async newFinishedRows(): Promise<Record<string, unknown>[] | null> {
    const open = this.open ? await this.open : []
    const rows: Record<string, unknown>[] = []
    for (const [executionId, { event, input }] of this.pending) {
      if (event.status === 'running' || this.rows.has(executionId)) return null
      if (open.some((row) => row.nodeId === event.nodeId)) return null
      rows.push(nodeColumns(this.run.id, { ...event, input }))
    }
    return rows
  }

  /** What settle wrote itself (newFinishedRows). */
  written() {
    this.pending.clear()
    this.checkpoint = null
  }

  /** One statement for a batch of new records (every row with the same columns). */
  private async insertRows(trx: TransactionClientContract, inserts: Record<string, unknown>[]) {
    if (inserts.length === 0) return
    await trx.insertQuery().table('workflow_run_nodes').multiInsert(sameColumns(inserts))
  }
}

// ---------------------------------------------------------------------------
// Executing
// ---------------------------------------------------------------------------

function outcomeOf(run: WorkflowRun, extra: Partial<RunOutcome> = {}): RunOutcome {
  return {
    runId: run.id,
    status: run.status,
    output: run.output,
    error: run.error,
    resumeAt: run.resumeAt?.toUTC().toISO() ?? null,
    waitingForWebhookNode: run.waitingForWebhookNode,
    ...extra,
  }
}

async function notifyFailure(workflow: RunnableWorkflow, run: WorkflowRun) {
  // A test run fails in front of the builder, in the editor: no e-mail.
  if (run.isTest) return
  if (!workflow.settings?.errorHandling?.failureNotification || !workflow.createdBy) return
  const owner = await db.from('users').where('id', workflow.createdBy).select('email').first()
  if (!owner?.email) return
  const name = workflow.name || workflow.id
  try {
    await sendMail({
      to: owner.email,
      subject: `Workflow "${name}" failed`,
      text:
        `A run of your workflow "${name}" failed (trigger: ${run.trigger}, run ${run.id}).\n\n` +
        `${run.error ?? ''}\n\nOpen the workflow: ${appUrl}/workflows/${workflow.id}`,
    })
  } catch (error) {
    // The run's record already says what failed; a mail server down must not hide it.
    logger.error({ err: error, runId: run.id }, 'workflow failure e-mail not sent')
  }
}

/**
 * Saves what the executor returned and says what comes next: the node records still pending
 * and the run's record in one transaction, then the run's event (whose listeners may read
 * the records at once).
 */
async function settle(
  run: WorkflowRun,
  workflow: RunnableWorkflow,
  result: ExecutionResult,
  recorder: RunRecorder
): Promise<RunOutcome> {
  const now = DateTime.now()
  const status: RunStatus = result.status === 'interrupted' ? 'queued' : result.status
  const final = FINAL_STATUSES.includes(status)
  // Whole seconds, as the column keeps them, rounded up so that a timer job is never early.
  const resumeAt = result.resumeAt
    ? DateTime.fromISO(result.resumeAt).plus({ milliseconds: 999 }).startOf('second')
    : null
  const values = {
    status,
    // A finished run's nodes are in their own records: its state is only kept to go on.
    state: final ? null : result.state,
    output: final ? (result.output ?? null) : null,
    error: result.error ?? null,
    resumeAt,
    waitingForWebhookNode: result.waitingForWebhook?.nodeId ?? null,
    ...(final
      ? {
          finishedAt: now,
          durationMs: run.startedAt ? Math.max(0, now.toMillis() - run.startedAt.toMillis()) : 0,
        }
      : {}),
  }
  const columns: Record<string, unknown> = {
    status,
    state: jsonText.prepare(values.state),
    output: jsonText.prepare(values.output),
    error: values.error,
    resume_at: resumeAt ? stamp(resumeAt) : null,
    waiting_for_webhook_node: values.waitingForWebhookNode,
    updated_at: stamp(now),
    // Finished, parked or back in the queue: no process holds it any more.
    ...RELEASED,
  }
  if (final) {
    columns.finished_at = stamp(now)
    columns.duration_ms = values.durationMs
  }
  const single =
    db.connection().dialect.name === 'postgres' ? await recorder.newFinishedRows() : null
  try {
    if (single) {
      await updateRunWithNodes(run.id, columns, single)
      recorder.written()
    } else {
      await db.transaction(async (trx) => {
        await recorder.flush(trx, { checkpoint: false })
        // Only while this process holds the run: one that lost its lease (taken back after
        // a stall) must not overwrite what the process now running it writes.
        await trx
          .from('workflow_runs')
          .where('id', run.id)
          .where('claimed_by', LEASE_OWNER)
          .update(columns)
      })
    }
  } finally {
    dropLease(run.id)
  }
  // The model now says what the row holds (it is not saved again).
  run.merge({ ...values, updatedAt: now })
  emitRunEvent({
    runId: run.id,
    workflowId: run.workflowId,
    nodeId: null,
    status,
    output: final ? run.output : undefined,
    error: run.error ?? undefined,
  })
  if (status === 'error') await notifyFailure(workflow, run)
  return outcomeOf(run, result.response ? { response: result.response } : {})
}

async function failWithoutRunning(
  run: WorkflowRun,
  workflow: RunnableWorkflow | null,
  error: string
) {
  const now = DateTime.now()
  run.merge({
    status: 'error',
    error,
    state: null,
    startedAt: run.startedAt ?? now,
    finishedAt: now,
    durationMs: 0,
    claimedBy: null,
    leaseExpiresAt: null,
  })
  await run.save()
  dropLease(run.id)
  emitRunEvent({ runId: run.id, workflowId: run.workflowId, nodeId: null, status: 'error', error })
  if (workflow) await notifyFailure(workflow, run)
  return outcomeOf(run)
}

/**
 * Takes a queued run, or a running one whose lease has expired (its process died): the
 * update succeeds only while that holds, with a slot of the workflow no other running run
 * holds (run_leases.ts, "Concurrency slots"), so two processes never both take it nor
 * together exceed the cap. The claim names this process and starts its lease.
 * `options`: another connection and book than this process's (tests: a second process).
 */
export async function claimQueued(
  run: WorkflowRun,
  cap: number,
  now: Date,
  options: ClaimOptions = {}
): Promise<boolean> {
  const client = options.client ?? db.connection()
  const changes: Record<string, unknown> = {
    status: 'running',
    updated_at: stamp(now),
    ...claimColumns(now),
  }
  if (!run.startedAt) changes.started_at = stamp(now)
  const claimed = await retriedOnDeadlock(() =>
    claimSlot(
      run.workflowId,
      run.id,
      cap,
      async (slot) =>
        affected(
          await withinCount(client, run, cap, (query) =>
            query
              .where('id', run.id)
              .where((status) =>
                status
                  .where('status', 'queued')
                  .orWhere((expired) =>
                    expired
                      .where('status', 'running')
                      .whereNotNull('lease_expires_at')
                      .where('lease_expires_at', '<', stamp(now))
                  )
              )
              .update({ ...changes, slot })
          )
        ) > 0,
      options
    )
  )
  if (claimed) holdLease(run.id)
  return claimed
}

/**
 * Two claims at the same moment can deadlock on MySQL/MariaDB (each holds a row the other's
 * update wants); the database rolls one back and expects it to be tried again, which then
 * finds the run taken or a slot free. A few quick tries, then the error goes to the caller.
 */
async function retriedOnDeadlock<T>(attempt: () => Promise<T>, tries = 4): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (error) {
      if (n >= tries || !isTransientDatabaseError(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, 10 * n + Math.random() * 20))
    }
  }
}

export interface ClaimOptions {
  client?: QueryClientContract
  book?: SlotBook
}

/**
 * The claim's update, made only while the workflow has fewer than `cap` other running runs
 * (belowCap). PostgreSQL and SQLite count in the update itself; MySQL would take shared
 * locks on the rows it counts there (a subquery of an update is a locking read), so it
 * counts first with a plain read: the slot, not the count, holds the cap under concurrency.
 */
async function withinCount(
  client: QueryClientContract,
  run: WorkflowRun,
  cap: number,
  update: (query: ReturnType<QueryClientContract['from']>) => Promise<unknown>
) {
  if (client.dialect.name === 'mysql') {
    const row = await client
      .from('workflow_runs')
      .where('workflow_id', run.workflowId)
      .where('status', 'running')
      .whereNot('id', run.id)
      .count('* as total')
      .first()
    if (Number(row?.total ?? 0) >= cap) return 0
    return update(client.from('workflow_runs'))
  }
  const limit = belowCap(run.workflowId, run.id, cap)
  return update(client.from('workflow_runs').whereRaw(limit.sql, limit.bindings))
}

/** Whether a running run's lease has run out (null: claimed before leases existed). */
function leaseExpired(run: WorkflowRun, now: Date) {
  return run.leaseExpiresAt !== null && run.leaseExpiresAt.toMillis() < now.getTime()
}

function affected(result: unknown): number {
  if (Array.isArray(result)) return Number(result[0] ?? 0)
  return Number(result ?? 0)
}

function runSignals(workflow: RunnableWorkflow, interrupt?: AbortSignal) {
  return { signal: AbortSignal.timeout(timeoutMsOf(workflow.settings)), interrupt }
}

/** The run, then its workflow through the given loader. */
async function readThen(runId: string, load: WorkflowLoader) {
  const run = await WorkflowRun.find(runId)
  if (!run) return null
  const claimable = run.status === 'queued' || run.status === 'running'
  return { run, workflow: claimable ? await load(run.workflowId) : null }
}

/**
 * Runs a queued run (from its trigger, or on from where an interruption left it). At the
 * workflow's concurrency cap the run stays queued and the outcome says `deferred`. The
 * signal is the worker's: when it aborts, the run goes back to queued with its state.
 */
export async function executeRun(
  runId: string,
  signal?: AbortSignal,
  options: ExecuteOptions = {}
): Promise<RunOutcome | null> {
  const read = options.loadWorkflow
    ? await readThen(runId, options.loadWorkflow)
    : (takeHandOff(runId) ?? (await loadRunAndWorkflow(runId)))
  if (!read) return null
  const { run } = read
  const workflow = read.workflow ? forRun(run, read.workflow) : null
  // Inserted running by createRun for this very job: claimed already.
  const claimed = 'claimed' in read && read.claimed === true
  const now = new Date()
  if (!claimed && run.status === 'running') {
    // Held by another process: if it has died, its lease runs out and this job takes over
    // then (or the lease check has put the run back to queued by that time).
    if (run.leaseExpiresAt === null) return outcomeOf(run)
    if (!leaseExpired(run, now)) return busy(run)
  } else if (run.status !== 'queued' && !claimed) {
    return outcomeOf(run)
  }
  if (!workflow) return failWithoutRunning(run, null, RUN_TEXTS.deleted)
  if (!workflow.executableWorkflow) return failWithoutRunning(run, workflow, RUN_TEXTS.notPublished)

  // A run that started before (cut off by a crash or a shutdown) may have left open records.
  const ranBefore = !claimed && (Boolean(run.state) || Boolean(run.startedAt))
  if (!claimed && !(await claimQueued(run, concurrencyOf(workflow.settings), now))) {
    await run.refresh()
    if (run.status === 'queued') return outcomeOf(run, { deferred: true })
    if (run.status === 'running' && run.leaseExpiresAt) return busy(run)
    return outcomeOf(run)
  }
  // What the claim wrote, without reading the row back.
  run.status = 'running'
  run.startedAt ??= DateTime.fromJSDate(now)
  emitRunEvent({ runId: run.id, workflowId: run.workflowId, nodeId: null, status: 'running' })

  // The run's plan checks (one per node) share one view of the capability stamp: the one
  // read with the workflow, else one read for the whole run.
  const turn = capabilityTurn(workflow.capabilityStamp)
  return (async () => {
    const recorder = new RunRecorder(run, await pluginRegistry(), {
      mayHaveOpenRows: ranBefore,
      workflow,
    })
    const executor = new WorkflowExecutor(
      executorWorkflow(workflow),
      await workflowPorts(recorder.handle, turn),
      { graph: workflow.graph, maxIterations: loopMaxIterations() }
    )
    const signals = runSignals(workflow, signal)
    let result: ExecutionResult
    try {
      result = await recorder.keepingRecords(() =>
        run.state
          ? executor.proceed(parseState(run.state), signals)
          : executor.start({ runId: run.id, trigger: run.trigger, input: run.input }, signals)
      )
    } catch (error) {
      // The job fails (onFailed records it): the lease must not outlive this attempt.
      dropLease(run.id)
      throw error
    }
    return settle(run, workflow, result, recorder)
  })()
}

/** A run another process holds: try again when its lease would run out. */
function busy(run: WorkflowRun): RunOutcome {
  return outcomeOf(run, {
    deferred: true,
    busyUntil: run.leaseExpiresAt?.toUTC().toISO() ?? undefined,
  })
}

/**
 * Resumes a waiting run: with nodeId, the node waiting for a webhook call (payload: the
 * call); without, every timer that is due. `notResumed` when there was nothing to resume.
 * A resume does not wait for a concurrency slot: the run already had one when it parked,
 * and a webhook caller should not be kept waiting behind other runs.
 */
export async function resumeRun(
  runId: string,
  payload?: unknown,
  options: ExecuteOptions & { nodeId?: string; signal?: AbortSignal } = {}
): Promise<RunOutcome | null> {
  const run = await WorkflowRun.find(runId)
  if (!run) return null
  if (run.status !== 'waiting') return outcomeOf(run, { notResumed: true })
  const state = parseState(run.state)
  const due = options.nodeId
    ? state.parked.some((node) => node.nodeId === options.nodeId && node.webhook)
    : state.parked.some((node) => node.resumeAt && Date.parse(node.resumeAt) <= Date.now())
  if (!due) return outcomeOf(run, { notResumed: true })

  const loaded = await (options.loadWorkflow ?? loadWorkflow)(run.workflowId)
  if (!loaded) return failWithoutRunning(run, null, RUN_TEXTS.deleted)
  const workflow = forRun(run, loaded)
  if (!workflow.executableWorkflow) return failWithoutRunning(run, workflow, RUN_TEXTS.notPublished)

  const now = new Date()
  const cap = concurrencyOf(workflow.settings)
  const claimed = await claimSlot(
    run.workflowId,
    run.id,
    cap,
    async (slot) =>
      affected(
        await withinCount(db.connection(), run, cap, (query) =>
          query
            .where('id', run.id)
            .where('status', 'waiting')
            .update({ status: 'running', updated_at: stamp(now), ...claimColumns(now), slot })
        )
      ) > 0
  )
  if (!claimed) {
    await run.refresh()
    // Still waiting: the workflow has its maximum of runs going on; try again later.
    if (run.status === 'waiting') return outcomeOf(run, { notResumed: true, deferred: true })
    return outcomeOf(run, { notResumed: true })
  }
  holdLease(run.id)
  run.status = 'running'
  emitRunEvent({ runId: run.id, workflowId: run.workflowId, nodeId: null, status: 'running' })

  const turn = capabilityTurn(workflow.capabilityStamp)
  return (async () => {
    const recorder = new RunRecorder(run, await pluginRegistry(), {
      mayHaveOpenRows: true,
      workflow,
    })
    const executor = new WorkflowExecutor(
      executorWorkflow(workflow),
      await workflowPorts(recorder.handle, turn),
      { graph: workflow.graph, maxIterations: loopMaxIterations() }
    )
    try {
      const result = await recorder.keepingRecords(() =>
        executor.resume(state, payload, {
          ...runSignals(workflow, options.signal),
          nodeId: options.nodeId,
        })
      )
      return await settle(run, workflow, result, recorder)
    } catch (error) {
      dropLease(run.id)
      if (!(error instanceof NotWaitingError)) throw error
      run.merge({ status: 'waiting', claimedBy: null, leaseExpiresAt: null })
      await run.save()
      return outcomeOf(run, { notResumed: true })
    }
  })()
}

/** Marks a run that could not be executed at all (its job failed for good). */
export async function markRunFailed(runId: string, error: unknown) {
  const run = await WorkflowRun.find(runId)
  if (!run || FINAL_STATUSES.includes(run.status)) return
  // Running under another process's live lease (its job stalled here, the run goes on there).
  if (run.status === 'running' && run.claimedBy !== LEASE_OWNER && run.leaseExpiresAt) {
    if (!leaseExpired(run, new Date())) return
  }
  const workflow = await loadWorkflow(run.workflowId)
  const message = error instanceof Error ? error.message : String(error ?? RUN_TEXTS.crashed)
  await failWithoutRunning(run, workflow, message || RUN_TEXTS.crashed)
}

/**
 * Runs whose job may be gone (the in-process queue forgets jobs on restart; a crashed
 * worker leaves runs "running"). Running runs whose lease has expired (run_leases.ts) go
 * back to queued with their last checkpoint. The caller dispatches 'workflow.run' for `queued`, 'workflow.resume' for
 * `due`, and a delayed 'workflow.resume' for `upcoming` (with the timer's own job id, so a
 * live timer job is not doubled); a duplicate dispatch is harmless, the first claim wins.
 */
export async function recoverRuns(now = new Date()) {
  await reclaimExpired(now)
  // Runs claimed without a lease (by a version before leases): the run's timeout decides.
  const running = await WorkflowRun.query()
    .where('status', 'running')
    .whereNull('leaseExpiresAt')
    .where('updatedAt', '<', stamp(new Date(now.getTime() - 60_000)))
  const settingsOf = new Map<string, WorkflowSettings | null>()
  for (const run of running) {
    if (!settingsOf.has(run.workflowId)) {
      settingsOf.set(run.workflowId, (await loadWorkflow(run.workflowId))?.settings ?? null)
    }
    // Nothing runs longer than its timeout: past it (and a margin) no process holds the run.
    const staleAt = run.updatedAt.toMillis() + timeoutMsOf(settingsOf.get(run.workflowId)) + 60_000
    if (staleAt > now.getTime()) continue
    await db
      .from('workflow_runs')
      .where('id', run.id)
      .where('status', 'running')
      .update({ status: 'queued', updated_at: stamp(now) })
  }
  const queued = await db.from('workflow_runs').where('status', 'queued').select('id')
  const due = await WorkflowRun.query()
    .where('status', 'waiting')
    .whereNotNull('resumeAt')
    .where('resumeAt', '<=', stamp(now))
    .select('id', 'resumeAt')
  // Timers falling due before the next sweep: their in-process job may have died with the
  // last process, and waiting for the next sweep would make a 2 s wait last a minute.
  const upcoming = await WorkflowRun.query()
    .where('status', 'waiting')
    .where('resumeAt', '>', stamp(now))
    .where('resumeAt', '<=', stamp(new Date(now.getTime() + UPCOMING_WAITS_MS)))
    .select('id', 'resumeAt')
  return {
    queued: queued.map((row: { id: string }) => row.id),
    due: due.map((row) => row.id),
    /** The due timers with their time: the id of their timer job. */
    dueTimers: due.map((row) => ({ runId: row.id, resumeAt: row.resumeAt!.toUTC().toISO()! })),
    upcoming: upcoming.map((row) => ({
      runId: row.id,
      resumeAt: row.resumeAt!.toUTC().toISO()!,
    })),
  }
}

/** How far ahead the sweep (every 20 s) re-arms the timers of waiting runs. */
export const UPCOMING_WAITS_MS = 120_000

/**
 * Deletes finished runs (and their node records) older than their workflow's retentionDays
 * (default 30), and runs whose workflow is gone. Returns how many runs were deleted.
 */
export async function pruneRuns(now = new Date()): Promise<number> {
  const workflows = await db.from('workflows').select('id', 'settings')
  const byDays = new Map<number, string[]>()
  for (const row of workflows) {
    const days = retentionDaysOf(parseJson<WorkflowSettings | null>(row.settings, null))
    byDays.set(days, [...(byDays.get(days) ?? []), row.id])
  }
  let deleted = 0
  for (const [days, ids] of byDays) {
    const cutoff = stamp(new Date(now.getTime() - days * 86_400_000))
    // Chunks keep the statement under SQLite's bound-parameter limit.
    for (let index = 0; index < ids.length; index += 500) {
      const chunk = ids.slice(index, index + 500)
      deleted += affected(
        await db
          .from('workflow_runs')
          .whereIn('workflow_id', chunk)
          .whereIn('status', FINAL_STATUSES)
          .where('created_at', '<', cutoff)
          .delete()
      )
    }
  }
  deleted += affected(
    await db
      .from('workflow_runs')
      .whereNotIn('workflow_id', db.from('workflows').select('id'))
      .delete()
  )
  return deleted
}
