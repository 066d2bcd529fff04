import type {
  CredentialsOf,
  LogEntry,
  OptionsOf,
  PluginDeclaration,
  RunnerContext,
  RunResult,
} from './define_plugin.js'

/** What started a run. */
export type RunTrigger = 'manual' | 'webhook' | 'schedule' | 'event' | 'api'

/** What a webhook-triggered run answers (respond-to-webhook node, or the last node's output). */
export interface WebhookResponse {
  statusCode: number
  headers?: Record<string, string>
  body?: unknown
}

/** A branch of a condition node; edges leave from it by `from.conditionId`. */
export interface WorkflowCondition {
  id: string
  /** {comparisons, logicalOperator} as in bot Condition items. */
  content?: unknown
  /** Other fields the plugin's items declare (a Loop's `exit`). */
  [field: string]: unknown
}

/**
 * What a workflow node's runner receives beside the common RunnerContext, and what it may
 * return beside `{ output, logs }`. Types only: runners in plugins/ import them.
 *
 * The common RunnerContext (define_plugin.ts) has no workflow member yet; the
 * server's ports pass this one as `workflow`, the way bot blocks get `bot`.
 */
export interface WorkflowNodeContext {
  runId: string
  workflowId: string
  node: { id: string; type: string; title?: string }
  /**
   * The outputs of the predecessors that reached this node: one predecessor's output as it
   * is, or an object keyed by predecessor node id when several joined here. The trigger
   * node receives the trigger input (webhook request, schedule tick, manual payload).
   */
  input: unknown
  trigger: RunTrigger
  /** 1 for the first try, then one more per retry. */
  attempt: number
  /** The node's branches (condition nodes), as stored in block.conditions. */
  conditions: WorkflowCondition[]
  /** Evaluates {comparisons, logicalOperator} with the operators of the bot engine. */
  evaluateCondition(condition: unknown): boolean
  /**
   * The latest output of an earlier node of the run, by id or title (as `{{$node...}}`
   * references find it); undefined when it has not run. Script nodes read it as `$node`.
   */
  outputOf?(node: string): unknown
  /**
   * What `{{$trigger}}` reads: the trigger node's output once it ran, the run's input
   * before. Script nodes read it as `$trigger`.
   */
  triggerData?: unknown
  /**
   * The nodes plugged into this one through attachment edges (an LLM agent's Model and
   * Tools), in edge order. Set by the server's ports; attached nodes never run as steps.
   */
  attachments?: AttachedNode[]
  /**
   * What this node returned as `memory` on its last visit in this run (a loop's list and
   * position); undefined on its first visit or after a visit that kept none.
   */
  memory?: unknown
  /** True when an edge that goes back to an earlier node (closes a loop) brought the input. */
  looped?: boolean
}

/**
 * A Model or Tool node attached to the running node. The agent asks it for what its plugin
 * lends (`exportOf('chatModel')`, `exportOf('agentTools')`) and for the context those
 * exports receive, so the agent never names a provider.
 */
export interface AttachedNode {
  id: string
  type: string
  title?: string
  /** The slot it is plugged into: the edge's attachmentName ('model', 'tools'). */
  slot: string
  /** Its stored options, before substitution. */
  options: Record<string, unknown>
  /** A named export of the attached plugin's runner.ts; undefined when it has none. */
  exportOf<T = unknown>(name: string): Promise<T | undefined>
  /**
   * The attached node's own runner context: its options with {{variables}} substituted and
   * its own decrypted credentials, over the running node's logger, HTTP client, sandbox,
   * AI credits and signal. Throws when its plugin is unknown, not enabled on the plan, or
   * its credentials cannot be read.
   */
  context(): Promise<RunnerContext>
}

/** When a waiting node wants to be resumed. */
export interface WaitRequest {
  /** ISO date-time: resume by timer. */
  resumeAt?: string
  /** Resume when the run's webhook is called for this node. */
  webhook?: boolean
}

export interface WorkflowNodeResult {
  /** The node's output; left out, the node passes its input on. */
  output?: unknown
  logs?: LogEntry[]
  /**
   * Leave through the edges of this branch (a condition id of block.conditions); null or
   * absent with conditions present: through the node's default edges.
   */
  conditionId?: string | null
  /** Park the run at this node until a timer or a webhook call resumes it. */
  wait?: WaitRequest
  /** What the webhook call that triggered the run answers (respond-to-webhook). */
  respond?: WebhookResponse
  /** Kept in the run's state for this node's next visit (`workflow.memory`); absent: forgotten. */
  memory?: unknown
  /**
   * This visit starts an iteration of a loop: it counts against the run's iteration bound
   * (LOOP_MAX_ITERATIONS) and lets the iteration's nodes run beyond MAX_NODE_VISITS.
   */
  iteration?: boolean
}

export type WorkflowRunnerContext<P = PluginDeclaration> = RunnerContext<
  OptionsOf<P>,
  CredentialsOf<P>
> & { workflow?: WorkflowNodeContext }

/** A workflow node's runner. A throw or an error log entry counts as the node failing. */
export type WorkflowRunner<P = PluginDeclaration> = (
  context: WorkflowRunnerContext<P>
) => WorkflowNodeResult | void | Promise<WorkflowNodeResult | void>

/**
 * The runner of a plugin serving bots and workflows: `context.surface` says which runs it
 * (with `bot` or `workflow` set); it returns a bot block's result or a workflow node's.
 */
export type SurfaceRunner<P = PluginDeclaration, A = never> = (
  context: RunnerContext<OptionsOf<P, A>, CredentialsOf<P>> & { workflow?: WorkflowNodeContext }
) => RunResult | WorkflowNodeResult | Promise<RunResult | WorkflowNodeResult>
