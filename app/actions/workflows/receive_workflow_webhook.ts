import AppError from '#exceptions/app_error'
import db from '@adonisjs/lucid/services/db'
import { queueAvailable, queueDriver } from '#queue/queue'
import { pluginRegistry } from '#services/plugin_registry'
import { createRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { dispatchRunWithin } from '#services/workflows/jobs'
import { onRunEvent, onRunResponse } from '#services/workflows/run_events'
import type { RunStatus, WebhookResponse } from '#shared/workflow/types'
import { WebhookCallInput, ToInput } from './workflow_runs.js'

/**
 * Starting and reading workflow runs: manual runs (the Run button, the API), webhook
 * calls, wait-node webhooks. Trigger plugins declare what they accept through exports of
 * their runner.ts (`acceptsCall`, `webhookInput`): the core asks for abilities, not names.
 */

const FINAL: RunStatus[] = ['success', 'error', 'cancelled']

/** How long a webhook call waits for the run's answer before it gets a 202. */
export const WEBHOOK_RESPONSE_TIMEOUT_MS = 30_000

type Accepts = (
  options: unknown,
  call: WebhookCallInput
) => { ok: true } | { ok: false; status: number }

/**
 * How long a webhook call waits for its run's job to reach the queue (Redis) when the
 * connection looks alive, before the caller is told to come back: a Redis that stopped
 * answering without the connection dropping must not hold callers until it returns. The
 * budget is counted in the web process's running time (awakeTimer): on a starved machine a
 * healthy dispatch takes seconds of wall time (the workflows bench at load average 20 saw a
 * 1 s wall-clock budget turn healthy calls away), and those seconds are not the process's own.
 * With the call's other work this answers within 2 s on a quiet machine. A Redis known to be
 * away (the usual outage: its connection dropped) is answered at once, before any run is
 * created.
 */
export const WEBHOOK_QUEUE_BUDGET_MS = 1500
/** The Retry-After of a webhook call turned away while the queue is unreachable. */
export const WEBHOOK_RETRY_AFTER_S = 10

function queueUnavailable() {
  return {
    status: 503,
    body: { error: 'The queue is unavailable; try again later' },
    headers: { 'Retry-After': String(WEBHOOK_RETRY_AFTER_S) },
  }
}

/**
 * Takes back a run whose job did not reach the queue in time, unless a worker has taken it
 * meanwhile (the dispatch got through late). A job that lands later finds no run and ends.
 */
async function withdrawRun(runId: string): Promise<boolean> {
  const deleted = await db
    .from('workflow_runs')
    .where('id', runId)
    .where('status', 'queued')
    .delete()
  return Number(Array.isArray(deleted) ? deleted[0] : deleted) > 0
}

/** Waits for the run's response (respond node) or its end, up to the timeout. */
function awaitResponse(
  runId: string,
  mode: string
): Promise<WebhookResponse | null> & { cancel: () => void } {
  let cancel = () => {}
  const waiting = new Promise<WebhookResponse | null>((resolve) => {
    const stops: (() => void)[] = []
    cancel = () => finish(null)
    const finish = (value: WebhookResponse | null) => {
      for (const stop of stops) stop()
      clearTimeout(timer)
      resolve(value)
    }
    const timer = setTimeout(() => finish(null), WEBHOOK_RESPONSE_TIMEOUT_MS)
    stops.push(onRunResponse(runId, (event) => finish(event.response)))
    stops.push(
      onRunEvent(runId, (event) => {
        if (event.nodeId !== null || !FINAL.includes(event.status as RunStatus)) return
        if (mode === 'lastNode' || event.status !== 'success') {
          finish({
            statusCode: event.status === 'success' ? 200 : 500,
            body:
              event.status === 'success'
                ? (event.output ?? null)
                : { error: event.error ?? 'The run failed' },
          })
        } else {
          finish(null)
        }
      })
    )
  })
  return Object.assign(waiting, { cancel })
}

/**
 * POST|GET /api/v1/workflows/:id/webhook: starts a run of an active workflow whose trigger
 * accepts webhook calls. Answers 202 with the run id, or the run's answer when the trigger
 * asks to wait for it (the run's last node, or a respond node).
 */
export class ReceiveWorkflowWebhook {
  async handle(
    workflowId: string,
    call: WebhookCallInput
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    // One read of the workflow serves the checks and the run (hot path: issue 6 Performance).
    const workflow = await loadWorkflow(workflowId)
    const executable = workflow?.executableWorkflow
    const root = executable?.blocks.find((block) => block.id === executable.root_block)
    const registry = await pluginRegistry()
    const accepts = root ? await registry.exportOf<Accepts>(root.type, 'acceptsCall') : undefined
    if (!workflow || !root || !accepts) throw AppError.notFound('Workflow not found')
    // Its published version answers, whatever the draft holds (docs/workflows.md).
    if (!workflow.isActive) {
      throw new AppError('This workflow is not active', { status: 404 })
    }
    const verdict = accepts(root.options ?? {}, call)
    if (!verdict.ok) {
      throw new AppError(verdict.status === 405 ? 'Method not allowed' : 'Invalid webhook secret', {
        status: verdict.status,
      })
    }
    // With Redis known to be away a run could not be queued: the caller hears so at once
    // (503 + Retry-After) rather than waiting for Redis to come back (docs/queue.md).
    if (!queueAvailable()) return queueUnavailable()
    const toInput = await registry.exportOf<ToInput>(root.type, 'webhookInput')
    const runId = await createRun(workflow, 'webhook', toInput ? toInput(call) : call, {
      // The in-process queue runs the job here: it may take the run as it was just written.
      handOff: queueDriver().name === 'in-process',
    })
    const mode = String(
      (root.options as Record<string, unknown> | undefined)?.responseMode ?? 'immediately'
    )
    // Listen before dispatching: an in-process run may finish at once.
    const waiting = mode === 'immediately' ? null : awaitResponse(runId, mode)
    // A Redis that went away unnoticed (or answers too slowly) holds the dispatch: past the
    // budget the run is withdrawn and the caller told to retry, so a call is either refused
    // or run, never both.
    if (!(await dispatchRunWithin(runId, WEBHOOK_QUEUE_BUDGET_MS))) {
      if (await withdrawRun(runId)) {
        waiting?.cancel()
        return queueUnavailable()
      }
    }
    const response = waiting ? await waiting : null
    if (!response) return { status: 202, body: { runId } }
    return { status: response.statusCode, body: response.body ?? null, headers: response.headers }
  }
}
