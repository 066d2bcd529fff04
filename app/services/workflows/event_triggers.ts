import { randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { DateTime } from 'luxon'
import env from '#start/env'
import { appUrl } from '#config/app'
import AppError from '#exceptions/app_error'
import { queueAvailable, queueDriver, removeRepeat, repeat } from '#queue/queue'
import { createGuardedHttp } from '#plugins/guarded_http'
import type {
  EventRequest,
  EventResponse,
  EventTriggerContext,
  HandleEvent,
  OnActivate,
  OnDeactivate,
  Poll,
  PollEveryMs,
} from '#plugins/event_trigger'
import type { LogEntry } from '#plugins/define_plugin'
import { pluginRegistry } from '#services/plugin_registry'
import { credentialsFor } from '#services/runner_context'
import type { ExecutableWorkflow } from '#shared/workflow/types'
import { createRun } from './run_workflow.js'
import { loadWorkflow, parseJson } from './runnable_workflow.js'
import { dispatchRun, dispatchRunWithin } from './jobs.js'

/** How long an event waits for its run's job to reach the queue before it is answered. */
const EVENT_QUEUE_BUDGET_MS = 1500

/**
 * Event triggers (app/plugins/event_trigger.ts has the plugin side): activation hooks, the
 * inbound event endpoint and polling. A trigger plugin is an event trigger when its runner
 * exports one of the hooks; nothing here names a plugin.
 *
 * What a trigger was activated with is kept in workflow_trigger_states (one row per active
 * workflow with an event trigger): the secret its service echoes, the options and the
 * credentials owner for the deactivation hook (which may run after the workflow row is
 * gone), and the state a poll keeps between ticks.
 */

export const POLL_JOB = 'workflow.poll'
const TABLE = 'workflow_trigger_states'
/** How long a poll may hold a workflow's row before another tick may poll it. */
const POLL_LEASE_MS = 5 * 60_000
/** Activation and events answer someone waiting; a poll may list and fetch a while. */
const HOOK_TIMEOUT_MS = 30_000
const POLL_TIMEOUT_MS = 2 * 60_000

interface Hooks {
  onActivate?: OnActivate
  onDeactivate?: OnDeactivate
  handleEvent?: HandleEvent
  poll?: Poll
  pollEveryMs?: PollEveryMs
}

interface TriggerRow {
  workflow_id: string
  workspace_id: string
  owner_id: string | null
  node_id: string
  plugin_id: string
  options: string
  secret: string
  state: string | null
  lease_until: number | string | null
}

async function hooksOf(pluginId: string): Promise<Hooks> {
  const registry = await pluginRegistry()
  const [onActivate, onDeactivate, handleEvent, poll, pollEveryMs] = await Promise.all(
    ['onActivate', 'onDeactivate', 'handleEvent', 'poll', 'pollEveryMs'].map((name) =>
      registry.exportOf<any>(pluginId, name)
    )
  )
  return { onActivate, onDeactivate, handleEvent, poll, pollEveryMs }
}

function isEventTrigger(hooks: Hooks) {
  return Boolean(hooks.onActivate || hooks.handleEvent || hooks.poll)
}

function now() {
  return DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
}

function affectedRows(result: unknown): number {
  return Number(Array.isArray(result) ? (result[0] ?? 0) : result) || 0
}

/** The public URL a service calls for this trigger. */
export function eventUrlOf(workflowId: string, nodeId: string) {
  return `${appUrl}/api/v1/workflows/${workflowId}/events/${encodeURIComponent(nodeId)}`
}

/** Whether `url` is the event URL of an active workflow's event trigger here. */
export async function isActiveEventUrl(url: string) {
  const prefix = `${appUrl}/api/v1/workflows/`
  if (!url.startsWith(prefix)) return false
  const match = /^([^/?#]+)\/events\/([^/?#]+)$/.exec(url.slice(prefix.length))
  if (!match) return false
  const row = await rowOf(match[1])
  if (!row || row.node_id !== decodeURIComponent(match[2])) return false
  const workflow = await loadWorkflow(row.workflow_id)
  return Boolean(workflow?.isActive && workflow.executableWorkflow)
}

/** The context every hook gets; null (with the reason in `logs`) when credentials are unusable. */
async function contextOf(
  row: Pick<
    TriggerRow,
    'workflow_id' | 'workspace_id' | 'owner_id' | 'node_id' | 'plugin_id' | 'secret'
  > & { options: Record<string, unknown> },
  logs: LogEntry[],
  timeoutMs = HOOK_TIMEOUT_MS
): Promise<EventTriggerContext | null> {
  const plugin = (await pluginRegistry()).get(row.plugin_id)
  if (!plugin) {
    logs.push({ status: 'error', description: `The trigger "${row.plugin_id}" is not installed` })
    return null
  }
  const credentials = await credentialsFor(
    {
      plugin,
      options: row.options,
      variables: [],
      workspaceId: row.workspace_id,
      ownerId: row.owner_id,
    },
    logs
  )
  if (credentials === null) return null
  return {
    workflowId: row.workflow_id,
    nodeId: row.node_id,
    options: row.options,
    credentials,
    eventUrl: eventUrlOf(row.workflow_id, row.node_id),
    secret: row.secret,
    http: createGuardedHttp({ allowInternal: env.get('ALLOW_INTERNAL_HTTP'), timeoutMs: 20_000 }),
    signal: AbortSignal.timeout(timeoutMs),
  }
}

function firstError(logs: LogEntry[]) {
  return logs.find((entry) => entry.status === 'error')?.description ?? 'Unknown error'
}

async function rowOf(workflowId: string): Promise<TriggerRow | null> {
  return (await db.from(TABLE).where('workflow_id', workflowId).first()) ?? null
}

// ---------------------------------------------------------------------------
// Activation
// ---------------------------------------------------------------------------

export interface ActivatingWorkflow {
  id: string
  workspaceId: string
  createdBy: string | null
  executableWorkflow: ExecutableWorkflow | null
}

/**
 * Starts the workflow's event trigger, when its trigger is one: runs onActivate (a throw
 * refuses the activation with its message, as a 422), keeps the row, repeats the poll.
 * Call it before the workflow is marked active.
 */
export async function activateEventTrigger(workflow: ActivatingWorkflow) {
  const executable = workflow.executableWorkflow
  const root = executable?.blocks.find((block) => block.id === executable.root_block)
  if (!root) return
  const hooks = await hooksOf(root.type)
  if (!isEventTrigger(hooks)) return

  // What an earlier activation left (a deactivation that could not finish) is stopped first.
  await deactivateEventTrigger(workflow.id)

  const options = (root.options ?? {}) as Record<string, unknown>
  const row = {
    workflow_id: workflow.id,
    workspace_id: workflow.workspaceId,
    owner_id: workflow.createdBy,
    node_id: root.id,
    plugin_id: root.type,
    secret: randomBytes(32).toString('base64url'),
  }
  const logs: LogEntry[] = []
  const context = await contextOf({ ...row, options }, logs)
  if (!context) {
    throw new AppError(firstError(logs), { status: 422, code: 'E_TRIGGER_ACTIVATION' })
  }
  let state: unknown = null
  if (hooks.onActivate) {
    try {
      state = (await hooks.onActivate({ ...context, isActiveEventUrl }))?.state ?? null
    } catch (error) {
      // The hook's own words: they say what the service refused (a token, a URL).
      throw new AppError((error as Error).message || String(error), {
        status: 422,
        code: 'E_TRIGGER_ACTIVATION',
      })
    }
  }
  await db.table(TABLE).insert({
    ...row,
    options: JSON.stringify(options),
    state: state === null ? null : JSON.stringify(state),
    lease_until: null,
    created_at: now(),
    updated_at: now(),
  })
  if (hooks.poll) await repeatPoll(workflow.id, hooks, options)
}

async function repeatPoll(workflowId: string, hooks: Hooks, options: Record<string, unknown>) {
  const everyMs = Math.max(1000, hooks.pollEveryMs?.(options) ?? 60_000)
  await repeat(POLL_JOB, { workflowId }, { everyMs, key: workflowId })
}

/**
 * Stops a workflow's event trigger (after it stopped being active): the row goes first, so
 * no event is accepted any more, then onDeactivate runs. Its failure is logged: the
 * workflow is already inactive.
 */
export async function deactivateEventTrigger(workflowId: string) {
  const row = await rowOf(workflowId)
  if (!row) return
  await db.from(TABLE).where('workflow_id', workflowId).delete()
  const hooks = await hooksOf(row.plugin_id)
  if (hooks.poll) await removeRepeat(POLL_JOB, workflowId).catch(() => {})
  if (!hooks.onDeactivate) return
  const logs: LogEntry[] = []
  const context = await contextOf({ ...row, options: parseJson(row.options, {}) }, logs)
  try {
    if (!context) throw new Error(firstError(logs))
    await hooks.onDeactivate(context)
  } catch (error) {
    logger.warn({ err: error, workflowId }, 'event trigger: the deactivation hook failed')
  }
}

/** At boot: the polls of active workflows again (in-process repeats live in memory). */
export async function resumeEventTriggerPolls() {
  const rows: TriggerRow[] = await db
    .from(TABLE)
    .join('workflows', 'workflows.id', `${TABLE}.workflow_id`)
    .where('workflows.is_active', true)
    .whereNotNull('workflows.executable_workflow')
    .select(`${TABLE}.*`)
  for (const row of rows) {
    const hooks = await hooksOf(row.plugin_id)
    if (hooks.poll) await repeatPoll(row.workflow_id, hooks, parseJson(row.options, {}))
  }
}

// ---------------------------------------------------------------------------
// Inbound events
// ---------------------------------------------------------------------------

/**
 * A call to POST /api/v1/workflows/{id}/events/{nodeId}: the trigger plugin checks it and
 * says whether a run starts. Without a `respond`, a started run is answered 200 with its id
 * (services such as Slack and Telegram want a 2xx quickly and retry otherwise).
 */
export async function receiveEvent(
  workflowId: string,
  nodeId: string,
  request: EventRequest
): Promise<EventResponse> {
  const row = await rowOf(workflowId)
  // No row: the workflow is inactive, or its trigger takes no events, or it is another node.
  if (!row || row.node_id !== nodeId) {
    throw new AppError('This workflow is not active', { status: 404 })
  }
  const workflow = await loadWorkflow(workflowId)
  if (!workflow || !workflow.isActive || !workflow.executableWorkflow) {
    throw new AppError('This workflow is not active', { status: 404 })
  }
  const { handleEvent } = await hooksOf(row.plugin_id)
  if (!handleEvent) throw AppError.notFound('Not found')
  const logs: LogEntry[] = []
  const context = await contextOf({ ...row, options: parseJson(row.options, {}) }, logs)
  if (!context) throw new AppError(firstError(logs), { status: 409, code: 'E_TRIGGER_CREDENTIALS' })
  const handled = await handleEvent({ ...context, request })
  if (!('runInput' in handled)) return handled.respond
  const deliveryId = handled.deliveryId ? String(handled.deliveryId).slice(0, 191) : null
  if (deliveryId && !(await claimDelivery(workflowId, deliveryId))) {
    // A retry of an event already taken: acknowledged again, so the service stops sending it.
    const seen = await db
      .from('workflow_event_deliveries')
      .where({ workflow_id: workflowId, delivery_id: deliveryId })
      .select('run_id')
      .first()
    return { status: 200, body: { ok: true, runId: seen?.run_id ?? null, duplicate: true } }
  }
  let runId: string
  try {
    runId = await createRun(workflow, 'event', handled.runInput ?? null, {
      handOff: queueDriver().name === 'in-process',
    })
  } catch (error) {
    // No run was made: the service's retry must be able to start one.
    if (deliveryId) await forgetDelivery(workflowId, deliveryId)
    throw error
  }
  if (deliveryId) {
    await db
      .from('workflow_event_deliveries')
      .where({ workflow_id: workflowId, delivery_id: deliveryId })
      .update({ run_id: runId })
  }
  // Services want their 2xx quickly and retry otherwise: during a Redis outage the event is
  // accepted into the database (the run stays queued) and the sweep that follows Redis's
  // return queues it (docs/queue.md, "During a Redis outage").
  if (queueAvailable()) await dispatchRunWithin(runId, EVENT_QUEUE_BUDGET_MS)
  return handled.respond ?? { status: 200, body: { ok: true, runId } }
}

/** True when this call is the first to take the delivery (the primary key decides). */
async function claimDelivery(workflowId: string, deliveryId: string): Promise<boolean> {
  try {
    await db
      .table('workflow_event_deliveries')
      .insert({ workflow_id: workflowId, delivery_id: deliveryId, created_at: now() })
    return true
  } catch (error) {
    // Each dialect words a duplicate key its own way: the row being there is what counts.
    const taken = await db
      .from('workflow_event_deliveries')
      .where({ workflow_id: workflowId, delivery_id: deliveryId })
      .first()
    if (taken) return false
    throw error
  }
}

async function forgetDelivery(workflowId: string, deliveryId: string) {
  await db
    .from('workflow_event_deliveries')
    .where({ workflow_id: workflowId, delivery_id: deliveryId })
    .delete()
}

/** How long delivery ids are kept: services stop retrying within hours. */
const DELIVERY_RETENTION_MS = 3 * 86_400_000

/** Deletes delivery ids older than the retention (the daily prune job calls it). */
export async function pruneEventDeliveries(at = new Date()): Promise<number> {
  const cutoff = DateTime.fromJSDate(new Date(at.getTime() - DELIVERY_RETENTION_MS)).toFormat(
    db.connection().dialect.dateTimeFormat
  )
  return affectedRows(
    await db.from('workflow_event_deliveries').where('created_at', '<', cutoff).delete()
  )
}

// ---------------------------------------------------------------------------
// Polling
// ---------------------------------------------------------------------------

/**
 * One poll of a workflow's trigger (the queue's repeat calls it): skipped while another
 * poll holds the row or when the workflow is no longer active. The new state is saved
 * before the runs are created, so an item the poll reported starts one run at most.
 * Returns the ids of the runs started (null when nothing was polled).
 */
export async function pollEventTrigger(workflowId: string): Promise<string[] | null> {
  const startedAt = Date.now()
  const leased = affectedRows(
    await db
      .from(TABLE)
      .where('workflow_id', workflowId)
      .where((query) => query.whereNull('lease_until').orWhere('lease_until', '<', startedAt))
      .update({ lease_until: startedAt + POLL_LEASE_MS })
  )
  if (!leased) return null
  const release = () =>
    db
      .from(TABLE)
      .where('workflow_id', workflowId)
      .update({ lease_until: null })
      .catch(() => {})

  const row = await rowOf(workflowId)
  const workflow = await loadWorkflow(workflowId)
  const hooks = row ? await hooksOf(row.plugin_id) : {}
  if (!row || !workflow?.isActive || !workflow.executableWorkflow || !hooks.poll) {
    await release()
    return null
  }
  const logs: LogEntry[] = []
  const context = await contextOf(
    { ...row, options: parseJson(row.options, {}) },
    logs,
    POLL_TIMEOUT_MS
  )
  if (!context) {
    await release()
    throw new Error(firstError(logs))
  }
  let result
  try {
    result = await hooks.poll({ ...context, state: parseJson(row.state, null) })
  } catch (error) {
    await release()
    throw error
  }
  const saved = affectedRows(
    await db
      .from(TABLE)
      .where('workflow_id', workflowId)
      .update({
        state: JSON.stringify(result.state ?? null),
        lease_until: null,
        updated_at: now(),
      })
  )
  // Deactivated while polling: the row is gone and the items are not run.
  if (!saved) return null
  const runIds: string[] = []
  for (const input of result.runInputs) {
    const runId = await createRun(workflow, 'event', input ?? null)
    await dispatchRun(runId)
    runIds.push(runId)
  }
  return runIds
}
