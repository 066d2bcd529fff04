import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import {
  hasPreparedStatements,
  isBetterSqlite,
  runPrepared,
  runPreparedWrites,
} from '#services/prepared_statements'
import logger from '@adonisjs/core/services/logger'
import { appUrl } from '#config/app'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { jsonText } from '#models/json_text'
import { sendMail } from '#services/mailer'
import type { ExecutionResult } from '#engine/workflow/executor'
import type { ExecutorEvent, NodeEvent } from '#engine/workflow/ports'
import type { PluginRegistry } from '#plugins/registry'
import type { RunStatus, WebhookResponse } from '#shared/workflow/types'
import { emitRunEvent, emitRunResponse } from './run_events.js'
import { dropLease, LEASE_OWNER, RELEASED, stamp } from './run_leases.js'
import { FINAL_STATUSES, type RunnableWorkflow } from './runnable_workflow.js'

/**
 * What is written of a run: its node records and checkpoints while the executor goes
 * (RunRecorder), then its own record when an executor call ends (settle) or when it cannot
 * run at all (failWithoutRunning), its live events and the failure e-mail.
 */

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

/** A multi-row insert of node records: every row names the columns any of them has. */
function insertNodes(rows: Record<string, unknown>[]) {
  const columns = new Set<string>()
  for (const values of rows) for (const name in values) columns.add(name)
  const names = [...columns]
  const row = `(${names.map(() => '?').join(', ')})`
  const bindings: unknown[] = []
  for (const values of rows) for (const name of names) bindings.push(values[name] ?? null)
  return {
    sql:
      `insert into "workflow_run_nodes" (${names.map((name) => `"${name}"`).join(', ')}) ` +
      `values ${rows.map(() => row).join(', ')}`,
    bindings,
  }
}

/** The run's record, only while this process holds it (see settle). */
function updateRun(runId: string, columns: Record<string, unknown>) {
  const names = Object.keys(columns)
  return {
    sql:
      `update "workflow_runs" set ${names.map((name) => `"${name}" = ?`).join(', ')} ` +
      'where "id" = ? and "claimed_by" = ?',
    bindings: [...names.map((name) => columns[name]), runId, LEASE_OWNER],
  }
}

/**
 * The run's record and new node records as prepared statements, without knex's query
 * compiler (the end of every run): on PostgreSQL in one statement (a statement is atomic
 * there, as the transaction is elsewhere), two round trips fewer; on SQLite in one
 * transaction. The texts repeat from run to run of a workflow (same columns, same count).
 */
async function updateRunWithNodes(
  runId: string,
  columns: Record<string, unknown>,
  nodes: Record<string, unknown>[]
) {
  const update = updateRun(runId, columns)
  const insert = nodes.length > 0 ? insertNodes(nodes) : null
  if (isBetterSqlite()) return runPreparedWrites(insert ? [insert, update] : [update])
  if (!insert) return runPrepared(update.sql, update.bindings)
  return runPrepared(`with nodes as (${insert.sql}) ${update.sql}`, [
    ...insert.bindings,
    ...update.bindings,
  ])
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
export class RunRecorder {
  /** Stored node records of this call, per execution, so later events update their own row. */
  private rows = new Map<string, number>()
  private pending = new Map<string, PendingNode>()
  /** The last checkpoint not written yet, serialised when it was taken. */
  private checkpoint: string | null = null
  /** Records a parked or cut-off visit left open (resume, or going on after a crash). */
  private open: Promise<OpenRow[]> | null

  /** Some node may reach outside: only then is a checkpoint written before the run's end. */
  private reachesOutside: boolean

  /** Read once: a model's attributes go through its proxy at every read, several per node. */
  private runId: string
  private workflowId: string

  constructor(
    readonly run: WorkflowRun,
    private registry: PluginRegistry,
    options: { mayHaveOpenRows: boolean; workflow: RunnableWorkflow }
  ) {
    this.runId = run.id
    this.workflowId = run.workflowId
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
        .where('run_id', this.runId)
        .where('status', 'running')
        .update({ status: 'interrupted', finished_at: stamp(new Date()) })
      return trx
        .from('workflow_run_nodes')
        .where('run_id', this.runId)
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
      emitRunResponse({ runId: this.runId, nodeId: event.nodeId, response: event.response })
      return
    }
    const known = this.pending.get(event.executionId)
    this.pending.set(event.executionId, {
      event,
      input: event.input !== undefined ? event.input : known?.input,
    })
    emitRunEvent({
      runId: this.runId,
      workflowId: this.workflowId,
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
      const columns = nodeColumns(this.runId, { ...event, input })
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
            runId: this.runId,
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
        .where('id', this.runId)
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
            logger.error({ err: flushError, runId: this.runId }, 'workflow node records lost')
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
      rows.push(nodeColumns(this.runId, { ...event, input }))
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

export function outcomeOf(run: WorkflowRun, extra: Partial<RunOutcome> = {}): RunOutcome {
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
export async function settle(
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
  const single = hasPreparedStatements() ? await recorder.newFinishedRows() : null
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

export async function failWithoutRunning(
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
