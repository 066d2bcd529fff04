import { EventEmitter } from 'node:events'
import logger from '@adonisjs/core/services/logger'
import type { ExecutableWorkflow, WorkflowSettings } from '#shared/workflow/types'

/**
 * Activation hooks: the trigger and scheduling code subscribes here to start or stop a
 * workflow's triggers, so the workflow actions never name a trigger. Events are emitted
 * after the change is committed; listeners are awaited one after the other and a failing
 * listener is logged without undoing the change (the database stays the truth, which a
 * scheduler can reconcile from at boot: active workflows have is_active = true).
 */

export interface WorkflowActivatedEvent {
  workflowId: string
  workspaceId: string
  /** What publishing compiled; its root_block is the trigger to start. */
  executableWorkflow: ExecutableWorkflow
  settings: WorkflowSettings
}

export type WorkflowDeactivationReason =
  /** Deactivated by hand (switch, API). */
  | 'deactivated'
  /** Published again while active: its trigger stops, then starts on the new version. */
  | 'republished'
  | 'archived'
  | 'deleted'

export interface WorkflowDeactivatedEvent {
  workflowId: string
  workspaceId: string
  reason: WorkflowDeactivationReason
}

type Listener<Event> = (event: Event) => void | Promise<void>

const ACTIVATED = 'workflow:activated'
const DEACTIVATED = 'workflow:deactivated'

const emitter = new EventEmitter()
// Each web process and worker may add a listener per trigger kind.
emitter.setMaxListeners(50)

function subscribe<Event>(name: string, listener: Listener<Event>) {
  emitter.on(name, listener)
  return () => {
    emitter.off(name, listener)
  }
}

async function emit(name: string, event: WorkflowActivatedEvent | WorkflowDeactivatedEvent) {
  for (const listener of emitter.listeners(name) as Listener<typeof event>[]) {
    try {
      await listener(event)
    } catch (error) {
      logger.error({ err: error, workflowId: event.workflowId }, `${name} listener failed`)
    }
  }
}

/** Runs `listener` each time a workflow becomes active. Returns the unsubscribe function. */
export function onWorkflowActivated(listener: Listener<WorkflowActivatedEvent>) {
  return subscribe(ACTIVATED, listener)
}

/** Runs `listener` each time an active workflow stops being active. Returns the unsubscribe function. */
export function onWorkflowDeactivated(listener: Listener<WorkflowDeactivatedEvent>) {
  return subscribe(DEACTIVATED, listener)
}

export function emitWorkflowActivated(event: WorkflowActivatedEvent) {
  return emit(ACTIVATED, event)
}

export function emitWorkflowDeactivated(event: WorkflowDeactivatedEvent) {
  return emit(DEACTIVATED, event)
}
