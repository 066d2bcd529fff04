import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { appUrl } from '#config/app'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { sendMail } from '#services/mailer'
import { NotWaitingError, WorkflowExecutor, type ExecutionResult } from '#engine/workflow/executor'
import type { ExecutorEvent, ExecutorWorkflow, NodeEvent } from '#engine/workflow/ports'
import { parseState } from '#engine/workflow/state'
import type {
  ExecutableWorkflow,
  RunStatus,
  RunTrigger,
  WebhookResponse,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'
import { workflowPorts } from './executor_ports.js'
import { emitRunEvent, emitRunResponse } from './run_events.js'

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
  executableWorkflow: ExecutableWorkflow | null
  settings: WorkflowSettings | null
  variables: WorkflowVariable[] | null
}

export type WorkflowLoader = (id: string) => Promise<RunnableWorkflow | null>

export interface RunOutcome {
  runId: string
  status: RunStatus
  /** Left queued: the workflow has its maximum of runs going on. Dispatch it again later. */
  deferred?: boolean
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

function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback
  if (typeof value !== 'string') return value as T
  try {
    return JSON.parse(value) as T
  } catch {
    return fallback
  }
}

/** Dates as Lucid writes them for the connection's dialect (SQLite would store a number). */
function stamp(date: Date | DateTime) {
  const value = date instanceof Date ? DateTime.fromJSDate(date) : date
  return value.toFormat(db.connection().dialect.dateTimeFormat)
}

/** Reads the workflow straight from its table, so runs depend on its columns only. */
export async function loadWorkflow(id: string): Promise<RunnableWorkflow | null> {
  const row = await db.from('workflows').where('id', id).first()
  if (!row) return null
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    createdBy: row.created_by ?? null,
    name: row.name,
    isActive: Boolean(row.is_active),
    executableWorkflow: parseJson<ExecutableWorkflow | null>(row.executable_workflow, null),
    settings: parseJson<WorkflowSettings>(row.settings, {}),
    variables: parseJson<WorkflowVariable[]>(row.variables, []),
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

/** A queued run of a published workflow; dispatch 'workflow.run' with its id after this. */
export async function createRun(
  workflow: RunnableWorkflow,
  trigger: RunTrigger,
  input: unknown
): Promise<string> {
  if (!workflow.executableWorkflow) throw new Error(RUN_TEXTS.notPublished)
  const run = await WorkflowRun.create({
    workflowId: workflow.id,
    status: 'queued',
    trigger,
    input: input ?? null,
  })
  emitRunEvent({ runId: run.id, nodeId: null, status: 'queued' })
  return run.id
}

// ---------------------------------------------------------------------------
// Records of one executor call
// ---------------------------------------------------------------------------

class RunRecorder {
  /** Node record per execution, so each visit of a node updates its own row. */
  private rows = new Map<string, number>()

  constructor(readonly run: WorkflowRun) {}

  handle = async (event: ExecutorEvent) => {
    if (event.type === 'checkpoint') {
      await db
        .from('workflow_runs')
        .where('id', this.run.id)
        .update({ state: JSON.stringify(event.state), updated_at: stamp(new Date()) })
      return
    }
    if (event.type === 'response') {
      emitRunResponse({ runId: this.run.id, nodeId: event.nodeId, response: event.response })
      return
    }
    await this.saveNode(event)
    emitRunEvent({
      runId: this.run.id,
      nodeId: event.nodeId,
      status: event.status,
      output: event.output,
    })
  }

  /** The open record of this node: the one this process made, or one left parked or cut off. */
  private async openRow(event: NodeEvent) {
    const known = this.rows.get(event.executionId)
    if (known) return WorkflowRunNode.find(known)
    const statuses = event.status === 'running' ? ['running'] : ['running', 'waiting']
    return WorkflowRunNode.query()
      .where('runId', this.run.id)
      .where('nodeId', event.nodeId)
      .whereIn('status', statuses)
      .orderBy('id', 'desc')
      .first()
  }

  private async saveNode(event: NodeEvent) {
    const row = (await this.openRow(event)) ?? new WorkflowRunNode()
    row.merge({
      runId: this.run.id,
      nodeId: event.nodeId,
      nodeType: event.nodeType,
      status: event.status,
      attempts: event.attempts,
      startedAt: DateTime.fromISO(event.startedAt),
    })
    if (event.input !== undefined) row.input = event.input
    if (event.output !== undefined) row.output = event.output
    if (event.logs !== undefined) row.logs = event.logs
    row.finishedAt = event.finishedAt ? DateTime.fromISO(event.finishedAt) : null
    row.durationMs = event.durationMs ?? null
    await row.save()
    this.rows.set(event.executionId, row.id)
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

/** Saves what the executor returned and says what comes next. */
async function settle(
  run: WorkflowRun,
  workflow: RunnableWorkflow,
  result: ExecutionResult
): Promise<RunOutcome> {
  const now = DateTime.now()
  const status: RunStatus = result.status === 'interrupted' ? 'queued' : result.status
  const final = FINAL_STATUSES.includes(status)
  // Checkpoints wrote the state behind the model's back: read it so the changes below count.
  await run.refresh()
  run.status = status
  // A finished run's nodes are in their own records: its state is only kept to go on.
  run.state = final ? null : result.state
  run.output = final ? (result.output ?? null) : null
  run.error = result.error ?? null
  // Whole seconds, as the column keeps them, rounded up so that a timer job is never early.
  run.resumeAt = result.resumeAt
    ? DateTime.fromISO(result.resumeAt).plus({ milliseconds: 999 }).startOf('second')
    : null
  run.waitingForWebhookNode = result.waitingForWebhook?.nodeId ?? null
  if (final) {
    run.finishedAt = now
    run.durationMs = run.startedAt ? Math.max(0, now.toMillis() - run.startedAt.toMillis()) : 0
  }
  await run.save()
  emitRunEvent({
    runId: run.id,
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
  })
  await run.save()
  emitRunEvent({ runId: run.id, nodeId: null, status: 'error', error })
  if (workflow) await notifyFailure(workflow, run)
  return outcomeOf(run)
}

/**
 * Takes a queued run: the update succeeds only while the run is still queued and the
 * workflow has fewer running runs than its cap, so two workers never both take it.
 */
async function claimQueued(run: WorkflowRun, cap: number): Promise<boolean> {
  const now = new Date()
  const changes: Record<string, unknown> = { status: 'running', updated_at: stamp(now) }
  if (!run.startedAt) changes.started_at = stamp(now)
  const updated = await db
    .from('workflow_runs')
    .where('id', run.id)
    .where('status', 'queued')
    // The derived table lets MySQL read the table it updates.
    .whereRaw(
      '(select count(*) from (select id from workflow_runs where workflow_id = ? and status = ?) as active) < ?',
      [run.workflowId, 'running', cap]
    )
    .update(changes)
  return affected(updated) > 0
}

function affected(result: unknown): number {
  if (Array.isArray(result)) return Number(result[0] ?? 0)
  return Number(result ?? 0)
}

function runSignals(workflow: RunnableWorkflow, interrupt?: AbortSignal) {
  return { signal: AbortSignal.timeout(timeoutMsOf(workflow.settings)), interrupt }
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
  const run = await WorkflowRun.find(runId)
  if (!run) return null
  if (run.status !== 'queued') return outcomeOf(run)
  const workflow = await (options.loadWorkflow ?? loadWorkflow)(run.workflowId)
  if (!workflow) return failWithoutRunning(run, null, RUN_TEXTS.deleted)
  if (!workflow.executableWorkflow) return failWithoutRunning(run, workflow, RUN_TEXTS.notPublished)

  if (!(await claimQueued(run, concurrencyOf(workflow.settings)))) {
    await run.refresh()
    return outcomeOf(run, run.status === 'queued' ? { deferred: true } : {})
  }
  await run.refresh()
  emitRunEvent({ runId: run.id, nodeId: null, status: 'running' })

  const recorder = new RunRecorder(run)
  const executor = new WorkflowExecutor(
    executorWorkflow(workflow),
    await workflowPorts(recorder.handle)
  )
  const signals = runSignals(workflow, signal)
  const result = run.state
    ? await executor.proceed(parseState(run.state), signals)
    : await executor.start({ runId: run.id, trigger: run.trigger, input: run.input }, signals)
  return settle(run, workflow, result)
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

  const workflow = await (options.loadWorkflow ?? loadWorkflow)(run.workflowId)
  if (!workflow) return failWithoutRunning(run, null, RUN_TEXTS.deleted)
  if (!workflow.executableWorkflow) return failWithoutRunning(run, workflow, RUN_TEXTS.notPublished)

  const claimed = await db
    .from('workflow_runs')
    .where('id', run.id)
    .where('status', 'waiting')
    .update({ status: 'running', updated_at: stamp(new Date()) })
  await run.refresh()
  if (affected(claimed) === 0) return outcomeOf(run, { notResumed: true })
  emitRunEvent({ runId: run.id, nodeId: null, status: 'running' })

  const recorder = new RunRecorder(run)
  const executor = new WorkflowExecutor(
    executorWorkflow(workflow),
    await workflowPorts(recorder.handle)
  )
  try {
    const result = await executor.resume(state, payload, {
      ...runSignals(workflow, options.signal),
      nodeId: options.nodeId,
    })
    return await settle(run, workflow, result)
  } catch (error) {
    if (!(error instanceof NotWaitingError)) throw error
    run.status = 'waiting'
    await run.save()
    return outcomeOf(run, { notResumed: true })
  }
}

/** Marks a run that could not be executed at all (its job failed for good). */
export async function markRunFailed(runId: string, error: unknown) {
  const run = await WorkflowRun.find(runId)
  if (!run || FINAL_STATUSES.includes(run.status)) return
  const workflow = await loadWorkflow(run.workflowId)
  const message = error instanceof Error ? error.message : String(error ?? RUN_TEXTS.crashed)
  await failWithoutRunning(run, workflow, message || RUN_TEXTS.crashed)
}

/**
 * Runs whose job may be gone (the in-process queue forgets jobs on restart; a crashed
 * worker leaves runs "running"). Stale running runs go back to queued with their last
 * checkpoint. The caller dispatches 'workflow.run' for `queued` and 'workflow.resume' for
 * `due`; a duplicate dispatch is harmless, the first claim wins.
 */
export async function recoverRuns(now = new Date()) {
  const running = await WorkflowRun.query()
    .where('status', 'running')
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
    .select('id')
  return {
    queued: queued.map((row: { id: string }) => row.id),
    due: due.map((row) => row.id),
  }
}

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
