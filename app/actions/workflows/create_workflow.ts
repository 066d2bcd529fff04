import Workflow from '#models/workflow'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { withinPlanLimit } from '#services/plan_limits'
import {
  DEFAULT_WORKFLOW_NAME,
  defaultWorkflowSettings,
  type WorkflowJson,
} from '#shared/workflow/types'
import { assertValidWorkflow } from './workflows.js'

/** An id an imported workflow may keep (the shape of our ids and of other tools'). */
const KEEPABLE_ID = /^[a-z0-9]{8,32}$/i

export interface CreateWorkflowInput {
  name?: string | null
  /** Imported or copied content (already through importWorkflow); empty when absent. */
  content?: WorkflowJson
  /** Keep the content's own id when it is free (imports of workflows that call each other). */
  keepId?: boolean
}

export class CreateWorkflow {
  /**
   * Creates a workflow from scratch, an imported file or a copy. Whatever the source said,
   * the new workflow is a draft, inactive, not archived and not yet compiled: it has never
   * been published here.
   */
  async handle(user: User, workspace: Workspace, input: CreateWorkflowInput = {}) {
    const source: WorkflowJson = input.content ?? {
      name: DEFAULT_WORKFLOW_NAME,
      blocks: [],
      edges: [],
      variables: [],
      settings: defaultWorkflowSettings(),
    }
    const workflow = assertValidWorkflow({
      ...source,
      name: input.name?.trim() || source.name?.trim() || DEFAULT_WORKFLOW_NAME,
    })
    let id: string | undefined
    if (input.keepId && workflow.id && KEEPABLE_ID.test(workflow.id)) {
      if (!(await Workflow.find(workflow.id))) id = workflow.id
    }
    const values = {
      ...(id ? { id } : {}),
      workspaceId: workspace.id,
      createdBy: user.id,
      name: workflow.name,
      description: workflow.description ?? null,
      icon: workflow.icon ?? null,
      version: workflow.version ?? 1,
      status: 'DRAFT',
      isActive: false,
      blocks: workflow.blocks,
      edges: workflow.edges,
      variables: workflow.variables,
      settings: workflow.settings,
      executableWorkflow: null,
      isArchived: false,
      updatedBy: null,
      isModifiedByAi: !!workflow.isModifiedByAi,
      publishedAt: null,
    } as const
    return withinPlanLimit({ user, workspace }, 'workflowCreation', (trx) =>
      Workflow.create(values, { client: trx })
    )
  }
}
