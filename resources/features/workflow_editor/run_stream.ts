import type { NodeRunStatus, RunStatus } from '#shared/workflow/types'

/**
 * Live run updates over server-sent events, spoken to @adonisjs/transmit with a plain
 * EventSource (its client package is not a dependency): GET /__transmit/events?uid=...
 * opens the stream, POST /__transmit/subscribe {uid, channel} joins a channel (the server
 * checks workspace membership), and each message is `data: {"channel", "payload"}`.
 * The server forgets a stream's subscriptions when it drops, so every (re)open subscribes
 * again.
 */

/** What the server broadcasts on a workflow's runs channel (app/services/workflows/run_channel.ts). */
export interface RunStreamMessage {
  runId: string
  /** null: the run's own status. */
  nodeId: string | null
  status: string
  error: string | null
}

/** A run as the editor follows it: its status and the last status of each node. */
export interface RunProgress {
  id: string
  status: RunStatus
  nodes: Record<string, NodeRunStatus>
  error?: string | null
}

export type RunStreamState = 'connecting' | 'live' | 'failed'

export function runChannel(workflowId: string) {
  return `workflows/${workflowId}/runs`
}

export const NODE_STATUSES: readonly NodeRunStatus[] = [
  'pending',
  'running',
  'success',
  'error',
  'skipped',
  'waiting',
]
export const RUN_STATUSES: readonly RunStatus[] = [
  'queued',
  'running',
  'success',
  'error',
  'waiting',
  'cancelled',
]
const SETTLED: ReadonlySet<RunStatus> = new Set(['success', 'error', 'cancelled', 'waiting'])

export function isSettled(status: RunStatus) {
  return SETTLED.has(status)
}

/** Reads one message's payload; anything else (pings, other shapes) is null. */
export function parseStreamMessage(data: string, channel: string): RunStreamMessage | null {
  let message: unknown
  try {
    message = JSON.parse(data)
  } catch {
    return null
  }
  if (!message || typeof message !== 'object') return null
  const { channel: from, payload } = message as { channel?: unknown; payload?: unknown }
  if (from !== channel || !payload || typeof payload !== 'object') return null
  const { runId, nodeId, status, error } = payload as Record<string, unknown>
  if (typeof runId !== 'string' || typeof status !== 'string') return null
  return {
    runId,
    nodeId: typeof nodeId === 'string' ? nodeId : null,
    status,
    error: typeof error === 'string' ? error : null,
  }
}

/**
 * The run the canvas shows after a message. A message of the run it shows updates it; one
 * of another run takes over when the shown run has settled (a webhook or schedule started
 * a new run), while the shown run goes on it is ignored. Returns `current` when unchanged.
 */
export function applyRunMessage(
  current: RunProgress | null,
  message: RunStreamMessage
): RunProgress | null {
  let run = current
  if (!run || run.id !== message.runId) {
    if (run && !isSettled(run.status)) return current
    run = { id: message.runId, status: 'running', nodes: {}, error: null }
  }
  if (message.nodeId === null) {
    const status = RUN_STATUSES.find((candidate) => candidate === message.status)
    if (!status) return current
    return { ...run, status, error: message.error }
  }
  const status = NODE_STATUSES.find((candidate) => candidate === message.status)
  if (!status) return current
  // Node events only come from a running run (a queued one has not reached any node).
  const runStatus = run.status === 'queued' ? 'running' : run.status
  return { ...run, status: runStatus, nodes: { ...run.nodes, [message.nodeId]: status } }
}

/**
 * Follows a workflow's runs channel until the returned function is called. `onState` says
 * whether messages are flowing ('live'), or not (the caller polls meanwhile): the browser
 * reconnects a dropped stream by itself, and each reconnection subscribes again.
 */
export function openRunStream(
  workflowId: string,
  handlers: {
    onMessage: (message: RunStreamMessage) => void
    onState: (state: RunStreamState) => void
    /** POST /__transmit/subscribe with the page's session and CSRF header (jsonFetch). */
    subscribe: (body: { uid: string; channel: string }) => Promise<unknown>
  }
): () => void {
  if (typeof EventSource === 'undefined') {
    handlers.onState('failed')
    return () => {}
  }
  const uid = crypto.randomUUID()
  const channel = runChannel(workflowId)
  const source = new EventSource(`/__transmit/events?uid=${encodeURIComponent(uid)}`)
  let closed = false
  handlers.onState('connecting')

  source.onopen = () => {
    handlers
      .subscribe({ uid, channel })
      .then(() => {
        if (!closed) handlers.onState('live')
      })
      .catch(() => {
        // Refused or unreachable: polling it is, for as long as this page lives.
        if (closed) return
        handlers.onState('failed')
        source.close()
      })
  }
  source.onmessage = (event: MessageEvent<string>) => {
    const message = parseStreamMessage(event.data, channel)
    if (message) handlers.onMessage(message)
  }
  source.onerror = () => {
    if (closed) return
    // CLOSED: the browser gave up (the route refused); otherwise it is reconnecting.
    handlers.onState('failed')
  }
  return () => {
    closed = true
    source.close()
    // The server drops the subscription with the stream; no unsubscribe call is needed.
  }
}
