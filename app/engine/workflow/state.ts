import type { LogEntry } from '#plugins/define_plugin'
import type { RunTrigger, WebhookResponse } from '#shared/workflow/types'
import type { RunVariable } from './ports.js'

/**
 * A run's state between two steps of the executor: plain JSON, stored with the run so that
 * a parked run resumes (timer or webhook) and an interrupted one goes on, in any process.
 */

/** An output that reached a node through an edge (from null: the trigger input). */
export interface Arrival {
  from: string | null
  output: unknown
}

/** A node waiting for its turn, with what reached it so far. */
export interface Activation {
  nodeId: string
  arrivals: Arrival[]
}

/** A node that parked the run (wait node). */
export interface ParkedNode {
  nodeId: string
  nodeType: string
  title?: string
  executionId: string
  input: unknown
  startedAt: string
  attempts: number
  logs: LogEntry[]
  resumeAt?: string
  webhook?: boolean
}

export interface RunState {
  version: 1
  runId: string
  trigger: RunTrigger
  /** The trigger input the run started with. */
  input: unknown
  variables: RunVariable[]
  /** The latest output of every node that ran, by node id ({{$node...}} reads them). */
  outputs: Record<string, unknown>
  /** Nodes reached and not run yet, in the order they were reached. */
  queue: Activation[]
  parked: ParkedNode[]
  /** Node runs so far (skipped ones included), against the loop bound. */
  visits: number
  /** Loop iterations started so far (results with `iteration`), against LOOP_MAX_ITERATIONS. */
  iterations?: number
  /** What nodes keep between their visits (WorkflowNodeResult.memory), by node id. */
  memory?: Record<string, unknown>
  /** The node that finished last: its output is the run's output. */
  lastNodeId?: string
  /** The first respond-to-webhook answer. */
  response?: WebhookResponse
}

export const STATE_VERSION = 1

/** Reads a stored state, refusing what this executor cannot continue. */
export function parseState(value: unknown): RunState {
  const state = (typeof value === 'string' ? JSON.parse(value) : value) as RunState | null
  if (!state || typeof state !== 'object' || state.version !== STATE_VERSION) {
    throw new Error('Unknown workflow run state version')
  }
  return state
}
