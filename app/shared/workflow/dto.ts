import type { BlockIssue } from '#shared/block_issues'
/**
 * What the server sends about workflows (built by app/dtos/workflow_dto.ts), shared with
 * the React pages: the list, the editor page and the REST API bodies.
 */
import type { UserMode } from '../workspace_roles.js'
import type { VersionAuthorDto, VersionKind } from '../history/types.js'
import type { PluginCategory } from '../../plugins/define_plugin.js'
import type { FormDescription } from '../../plugins/derive.js'
import type {
  NodeRunStatus,
  RunStatus,
  WorkflowEditor,
  WorkflowJson,
  WorkflowSnapshot,
  WorkflowStatus,
} from './types.js'

/** A row of the workflow list. */
export interface WorkflowSummaryDto {
  id: string
  name: string
  description: string | null
  icon: string | null
  status: WorkflowStatus
  isActive: boolean
  isArchived: boolean
  publishedAt: string | null
  /** Runs come with the executor; null until then. */
  lastRunAt: string | null
  createdAt: string
  updatedAt: string
}

/** GET /api/v1/workflows/:id and every call that changes one workflow. */
export interface WorkflowDto {
  workflow: WorkflowJson
  currentUserMode: UserMode
}

export interface WorkflowVersionDto {
  id: string
  versionName: string
  kind: VersionKind
  workflow: WorkflowSnapshot
  userId: string | null
  /** Who made it (null: the account is gone, or the copilot on its own). */
  author: VersionAuthorDto | null
  updatedBy: WorkflowEditor
  createdAt: string
  updatedAt: string
}

/** GET /api/v1/workflows/:id/versions: newest first. */
export interface WorkflowHistoryDto {
  versions: WorkflowVersionDto[]
  /** When the history last changed (null while empty). */
  updatedAt: string | null
}

/** A node type the editor offers (workflow-serving plugins, locked ones with an upgrade hint). */
export interface WorkflowEditorPluginDto {
  id: string
  name: string
  fullName: string
  tags: readonly string[]
  category: PluginCategory
  icon: string | null
  locked: boolean
  defaults: Record<string, unknown>
  form: FormDescription
}

/** Props of the Inertia page workflows/edit. */
export interface WorkflowEditPageProps {
  workflow: WorkflowJson
  currentUserMode: UserMode
  plugins: WorkflowEditorPluginDto[]
  /** The app's public URL (APP_URL): the editor shows the URLs nodes are called at. */
  appUrl: string
  /** The draft's nodes' fields their validators refuse, as of opening. */
  issues?: BlockIssue[]
}

/** Props of the Inertia page workflows/index. */
export interface WorkflowListPageProps {
  workflows: WorkflowSummaryDto[]
  q: string
}

/** A run in a workflow's runs list (GET /api/v1/workflows/{id}/runs). */
export interface WorkflowRunSummaryDto {
  id: string
  workflowId: string
  status: RunStatus
  trigger: string
  /** A test run of the draft, started from the editor. */
  isTest: boolean
  error: string | null
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
  createdAt: string | null
}

/** One node execution of a run, as recorded (a node visited twice has two). */
export interface WorkflowRunNodeDto {
  nodeId: string
  nodeType: string
  status: NodeRunStatus
  input: unknown
  output: unknown
  /** A failed node: the error its runner reported, and its cause when one was given. */
  error: string | null
  errorDetails: unknown
  logs: unknown[]
  attempts: number
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
}

/** A run with each node's input, output and logs (GET /api/v1/runs/{runId}). */
export interface WorkflowRunDetailDto extends WorkflowRunSummaryDto {
  input: unknown
  output: unknown
  nodes: WorkflowRunNodeDto[]
}

/** Props of the Inertia page workflows/runs: the runs are fetched by the page itself. */
export interface WorkflowRunsPageProps {
  workflow: { id: string; name: string; workspaceId: string }
  /** Titles of the workflow's current nodes, to name the nodes of a run. */
  nodes: { id: string; title: string | null; type: string }[]
  /** Opened at first (?run=), else the newest. */
  selectedRunId: string | null
}
