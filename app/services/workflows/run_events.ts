import { EventEmitter } from 'node:events'
import type { NodeRunStatus, RunStatus, WebhookResponse } from '#shared/workflow/types'

/**
 * Live progress of runs in this process, for the run view's server-sent events and for the
 * webhook route waiting for a run's answer. Events of runs executed by another process
 * (a BullMQ worker) are not heard here: run_channel.ts broadcasts them through transmit,
 * whose Redis transport carries them to every web process.
 */

/** A node's status changed (nodeId set), or the run's (nodeId null). */
export interface RunEvent {
  runId: string
  /** Live views listen per workflow (the editor shows runs however they were triggered). */
  workflowId: string
  nodeId: string | null
  status: NodeRunStatus | RunStatus
  output?: unknown
  error?: string
}

/** A respond-to-webhook node ran: what the triggering call answers. */
export interface RunResponseEvent {
  runId: string
  nodeId: string
  response: WebhookResponse
}

const emitter = new EventEmitter()
// One listener per open run view or waiting webhook call: no fixed cap makes sense.
emitter.setMaxListeners(0)

export const runEvents = emitter

/** Carries events to the other processes (run_event_relay.ts, scaled mode); null alone. */
export interface RunEventForwarder {
  event(event: RunEvent): void
  response(event: RunResponseEvent): void
}

let forwarder: RunEventForwarder | null = null

export function setRunEventForwarder(next: RunEventForwarder | null) {
  forwarder = next
}

/** Delivers an event to this process's listeners only (what the relay calls on receipt). */
export function deliverRunEvent(event: RunEvent) {
  emitter.emit('event', event)
  emitter.emit(`run:${event.runId}`, event)
}

export function deliverRunResponse(event: RunResponseEvent) {
  emitter.emit(`response:${event.runId}`, event)
}

/** A run's progress: heard here, and in every other process when a relay is set. */
export function emitRunEvent(event: RunEvent) {
  deliverRunEvent(event)
  forwarder?.event(event)
}

export function emitRunResponse(event: RunResponseEvent) {
  deliverRunResponse(event)
  forwarder?.response(event)
}

/** Listens to one run's events; call the returned function to stop. */
export function onRunEvent(runId: string, listener: (event: RunEvent) => void) {
  emitter.on(`run:${runId}`, listener)
  return () => {
    emitter.off(`run:${runId}`, listener)
  }
}

/** Listens to every run's events (an SSE broadcaster); call the returned function to stop. */
export function onAnyRunEvent(listener: (event: RunEvent) => void) {
  emitter.on('event', listener)
  return () => {
    emitter.off('event', listener)
  }
}

/** Listens for the webhook answer of one run; call the returned function to stop. */
export function onRunResponse(runId: string, listener: (event: RunResponseEvent) => void) {
  emitter.on(`response:${runId}`, listener)
  return () => {
    emitter.off(`response:${runId}`, listener)
  }
}
