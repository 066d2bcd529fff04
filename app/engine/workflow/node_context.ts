import type {
  CredentialsOf,
  LogEntry,
  OptionsOf,
  PluginDeclaration,
  RunnerContext,
} from '#plugins/define_plugin'
import type { RunTrigger, WebhookResponse, WorkflowCondition } from '#shared/workflow/types'

/**
 * What a workflow node's runner receives beside the common RunnerContext, and what it may
 * return beside `{ output, logs }`. Types only: runners in plugins/ import them.
 *
 * The common RunnerContext (app/plugins/define_plugin.ts) has no workflow member yet; the
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
}

export type WorkflowRunnerContext<P = PluginDeclaration> = RunnerContext<
  OptionsOf<P>,
  CredentialsOf<P>
> & { workflow?: WorkflowNodeContext }

/** A workflow node's runner. A throw or an error log entry counts as the node failing. */
export type WorkflowRunner<P = PluginDeclaration> = (
  context: WorkflowRunnerContext<P>
) => WorkflowNodeResult | void | Promise<WorkflowNodeResult | void>
