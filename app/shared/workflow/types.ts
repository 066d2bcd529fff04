/**
 * The workflow format:
 * nodes ("blocks") joined by edges, variables and settings. Shared by the server (import,
 * save, publish, executor) and the React workflow editor: types and plain defaults only.
 * Every node type is a plugin whose category is trigger, action, model, tool, data or flow.
 */

export type WorkflowStatus = 'DRAFT' | 'PUBLISHED' | 'DISABLED'

export interface Coordinates {
  x: number
  y: number
}

// What a node's runner sees of a run is the SDK's (packages/sdk): one declaration of each.
import type {
  RunTrigger,
  WebhookResponse,
  WorkflowCondition,
} from '../../../packages/sdk/src/workflow.js'
export type { RunTrigger, WebhookResponse, WorkflowCondition }

export interface WorkflowBlock {
  id: string
  /** The plugin id. */
  type: string
  title?: string
  graphCoordinates: Coordinates
  options?: Record<string, unknown>
  outgoingEdgeId?: string
  /** Disabled nodes are kept in the graph but skipped by the executor. */
  isDisabled?: boolean
  /** Condition nodes: their branches. */
  conditions?: WorkflowCondition[]
  /** The builder's note on the node (kept from imports such as n8n's node notes). */
  notes?: string
  /**
   * A trigger's sample output kept with the draft (docs/workflows.md "Pinned data"): test
   * runs use it instead of waiting for the real event; published versions never carry it.
   */
  pinnedData?: unknown
}

export interface WorkflowEdge {
  id: string
  from: { blockId: string; conditionId?: string }
  to: { blockId: string }
  /**
   * An attachment edge plugs a Model or a Tool into an LLM agent node. It runs from the
   * agent (`from.blockId`) to the attached node (`to.blockId`) and is not a step of the flow.
   */
  isAttachment?: boolean
  /** 'model' (one) or 'tools' (many) for LLM agent nodes. */
  attachmentName?: string
}

export interface WorkflowVariable {
  id: string
  name: string
  value?: string | string[] | null
}

export interface WorkflowSettings {
  errorHandling?: {
    /** Retries of a failed node before the failure counts. */
    retryCount?: number
    /** Milliseconds between retries. */
    retryDelay?: number
    /** E-mail the workflow's owner when a run fails. */
    failureNotification?: boolean
    /**
     * When a node still fails after its retries: false (default) stops the run with status
     * error; true records the failure and goes on with `{ error }` as the node's output.
     */
    continueOnFail?: boolean
  }
  /** Seconds a run may take before it is stopped. */
  timeout?: number
  /** Runs of this workflow at the same time. */
  concurrency?: number
  logging?: { level?: 'info' | 'error' | 'debug'; retentionDays?: number }
}

/** What publishing compiles: the enabled nodes, the trigger to start from, the waits. */
export interface ExecutableWorkflow {
  blocks: WorkflowBlock[]
  edges: WorkflowEdge[]
  root_block: string
  wait_blocks: string[]
  /**
   * The variables as published: runs use them, not the draft's, so that editing the draft
   * never changes what live runs do (absent in versions published before they were kept
   * here: the draft's are used then). Settings (timeout, retries, concurrency, logging) are
   * the workflow's own and apply at once.
   */
  variables?: WorkflowVariable[]
}

export interface WorkflowJson {
  id?: string
  name: string
  description?: string | null
  version?: number
  status?: WorkflowStatus
  isActive?: boolean
  blocks: WorkflowBlock[]
  edges: WorkflowEdge[]
  variables: WorkflowVariable[]
  settings: WorkflowSettings
  executableWorkflow?: ExecutableWorkflow | null
  isArchived?: boolean
  icon?: string | null
  workspaceId?: string
  updatedBy?: 'user' | 'assistant' | null
  isModifiedByAi?: boolean
  /** The draft's revision, sent back with the editor's saves (docs/editor.md). */
  revision?: number
  /** When the workflow was last published (null while never published). */
  publishedAt?: string | null
  createdAt?: string
  updatedAt?: string
}

/** Who saved a change: a person in the editor or the copilot. */
export type WorkflowEditor = 'user' | 'assistant'

/** What a history version keeps: the workflow's content and naming at that save. */
export type WorkflowSnapshot = Pick<
  WorkflowJson,
  'name' | 'description' | 'icon' | 'blocks' | 'edges' | 'variables' | 'settings'
>

/** interrupted: the attempt was cut off (its process died or stopped); a later one follows. */
export type NodeRunStatus =
  'pending' | 'running' | 'success' | 'error' | 'skipped' | 'waiting' | 'interrupted'
export type RunStatus = 'queued' | 'running' | 'success' | 'error' | 'waiting' | 'cancelled'
/** What started a run. */
export const RUN_TRIGGERS: readonly RunTrigger[] = ['manual', 'webhook', 'schedule', 'event', 'api']

export const DEFAULT_WORKFLOW_NAME = 'My workflow'

/** Settings of a new workflow (logging level info, retention 30 days). */
export function defaultWorkflowSettings(): WorkflowSettings {
  return {
    errorHandling: {
      retryCount: 0,
      retryDelay: 1000,
      failureNotification: false,
      continueOnFail: false,
    },
    timeout: 300,
    concurrency: 5,
    logging: { level: 'info', retentionDays: 30 },
  }
}
