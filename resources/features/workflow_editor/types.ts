import type { BlockIssue } from '#shared/block_issues'
import type {
  WorkflowDto,
  WorkflowEditorPluginDto,
  WorkflowEditPageProps,
  WorkflowHistoryDto,
  WorkflowVersionDto,
} from '#shared/workflow/dto'
import type { NodeRunStatus, RunStatus, WorkflowJson } from '#shared/workflow/types'
import type { ExposedUrlDeclaration } from '../../../app/plugins/define_plugin.js'
import type { OutputSchemaDeclaration } from '../../../app/plugins/output_schema.js'

export type {
  WorkflowDto,
  WorkflowEditPageProps,
  WorkflowHistoryDto,
  WorkflowVersionDto,
} from '#shared/workflow/dto'

/** The node families of the palette, in the order it shows them. */
export const NODE_FAMILIES = ['trigger', 'action', 'model', 'tool', 'data', 'flow'] as const
export type NodeFamily = (typeof NODE_FAMILIES)[number]

/**
 * A slot of an LLM-agent-like node into which model or tool nodes plug. Declared by the
 * agent's manifest as `attachments` (for example `{ name: 'model', accepts: ['model'] }`
 * and `{ name: 'tools', accepts: ['tool'], multiple: true }`).
 */
export interface AttachmentSlot {
  name: string
  label: string
  /** Plugin categories that may plug in here. */
  accepts: string[]
  /** Several nodes may plug in (tools); otherwise one, a new one replacing the old (model). */
  multiple: boolean
  /** Publishing refuses the workflow while no enabled node is plugged in here. */
  required: boolean
}

/** The URL a node is called at, as its manifest declares it (`exposesUrl`). */
export type ExposedUrl = Omit<ExposedUrlDeclaration, 'hint'> & { hint?: string }

/** A node type as the editor uses it: the server's DTO plus what the manifest adds. */
export interface WorkflowEditorPlugin extends WorkflowEditorPluginDto {
  /** Branches of a fresh node (condition nodes), ids added on drop. */
  defaultConditions: Record<string, unknown>[]
  attachments: AttachmentSlot[]
  url?: ExposedUrl
  /** What the node outputs, from its manifest (declared_output.ts). */
  outputSchema?: OutputSchemaDeclaration
}

export type { WorkflowDoc } from './workflow_editing.js'

export type WorkflowMeta = Required<Pick<WorkflowJson, 'status' | 'isActive'>> &
  Pick<WorkflowJson, 'publishedAt' | 'updatedAt'>

export type { RunProgress } from './run_stream.js'

export type { NodeRunStatus, RunStatus }

export type WorkflowPageProps = WorkflowEditPageProps
/** Saves also return the nodes' fields their validators refuse (app/plugins/block_issues.ts). */
export type WorkflowSaveResponse = WorkflowDto & { issues?: BlockIssue[] }
export type WorkflowHistory = WorkflowHistoryDto
export type WorkflowVersion = WorkflowVersionDto
