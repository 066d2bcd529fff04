import type { LogEntry, VariableValue } from '#plugins/define_plugin'
import type {
  ExecutableWorkflow,
  NodeRunStatus,
  WebhookResponse,
  WorkflowBlock,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'
import type { WorkflowNodeContext, WorkflowNodeResult } from './node_context.js'
import type { RunState } from './state.js'

/**
 * What the workflow executor needs from the outside world (app/engine/workflow/README.md). Like the
 * chat engine, the executor is pure TypeScript: plugins, clocks, ids and persistence come
 * through these ports. app/services/workflows/executor_ports.ts implements them for the
 * server; unit tests give in-memory ones.
 */

/** A published workflow as the executor runs it. */
export interface ExecutorWorkflow {
  id: string
  workspaceId: string
  /** Whose user-scoped credentials the nodes may use (the workflow's creator). */
  ownerId?: string | null
  executable: ExecutableWorkflow
  settings: WorkflowSettings
  variables: WorkflowVariable[]
}

/** A variable as runners see it; references to node outputs are added as extra entries. */
export interface RunVariable {
  id: string
  name: string
  value?: VariableValue
}

export interface NodeRunRequest {
  workflow: ExecutorWorkflow
  block: WorkflowBlock
  /** The workflow's variables, then one entry per `{{$node...}}`/`{{$input...}}` reference. */
  variables: RunVariable[]
  context: WorkflowNodeContext
  /**
   * The run's node-visit count at this visit: the same when a visit is run again from its
   * checkpoint (after a crash), another one for the next visit of the same node (a loop).
   */
  visit?: number
  /** Aborted when the run times out or is interrupted. */
  signal: AbortSignal
}

export interface NodeRunOutcome {
  result?: WorkflowNodeResult | void
  /** What the runner logged (a throw arrives here as an error entry). */
  logs: LogEntry[]
  variablesSet: { id: string; value: VariableValue }[]
}

/** One change of a node's status, reported as it happens (live view, run records). */
export interface NodeEvent {
  type: 'node'
  /** One per visit of the node (a node in a loop runs several times). */
  executionId: string
  nodeId: string
  nodeType: string
  title?: string
  status: NodeRunStatus
  input?: unknown
  output?: unknown
  logs?: LogEntry[]
  attempts: number
  startedAt: string
  finishedAt?: string
  durationMs?: number
}

/** A respond-to-webhook node ran: the webhook call can be answered now. */
export interface ResponseEvent {
  type: 'response'
  nodeId: string
  response: WebhookResponse
}

/** The state after a node: saved so a crashed process can go on from there. */
export interface CheckpointEvent {
  type: 'checkpoint'
  state: RunState
}

export type ExecutorEvent = NodeEvent | ResponseEvent | CheckpointEvent

export interface ExecutorPorts {
  runNode(request: NodeRunRequest): Promise<NodeRunOutcome>
  /** Awaited before the executor goes on, so records land in order. */
  record(event: ExecutorEvent): void | Promise<void>
  now(): Date
  newId(): string
  /** Waits between retries; resolves early when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
  /**
   * The name builders know a node type by (its plugin's), for messages about a node left
   * untitled; without it the stored type is shown.
   */
  typeName?(type: string): string | undefined
}
