import db from '@adonisjs/lucid/services/db'
import { claimRevision } from '#services/draft_revision'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { planFor } from '#services/capabilities'
import { withinPlanLimit } from '#services/plan_limits'
import { assertPluginsEnabled } from '#services/marketplace'
import { emitWorkflowDeactivated } from '#services/workflow_events'
import { snapshotOf } from '#dtos/workflow_dto'
import {
  DEFAULT_WORKFLOW_NAME,
  defaultWorkflowSettings,
  type WorkflowBlock,
  type WorkflowEdge,
  type WorkflowEditor,
  type WorkflowJson,
  type WorkflowSettings,
  type WorkflowVariable,
} from '#shared/workflow/types'
import { nodeTypesOf, validateWorkflow, WORKFLOW_NAME_MAX_LENGTH } from '#shared/workflow/validate'
import { sameJson } from '#shared/history/diff'
import { recordVersion } from './workflow_history.js'

/** An id an imported workflow may keep (the shape of our ids and of other tools'). */
const KEEPABLE_ID = /^[a-z0-9]{8,32}$/i

/** Parses against the workflow format; a workflow that does not parse is never saved. */
export function assertValidWorkflow(
  workflow: unknown,
  title = 'Error while updating workflow'
): WorkflowJson {
  const checked = validateWorkflow(workflow)
  if (!checked.ok) {
    const first = checked.errors[0]
    throw new AppError(title, {
      status: 422,
      code: 'E_INVALID_WORKFLOW',
      description: first.path ? `${first.path}: ${first.message}` : first.message,
    })
  }
  return checked.workflow
}

/** JSON equality that ignores key order (the editor may rebuild objects in another order). */
export { sameJson }

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

export interface WorkflowPatch {
  name?: string
  description?: string | null
  icon?: string | null
  blocks?: WorkflowBlock[]
  edges?: WorkflowEdge[]
  variables?: WorkflowVariable[]
  settings?: WorkflowSettings
  /** Who made the change; a person unless the copilot says so. */
  updatedBy?: WorkflowEditor
  /**
   * The draft revision the editor loaded: saved only while it is still the stored one
   * (docs/editor.md "Saving from two places").
   */
  revision?: number
}

export class UpdateWorkflow {
  /**
   * Saves a change. The content is checked against the format; node types added by this
   * save must be enabled on the actor's plan (those the workflow already had stay editable
   * after an admin disables their plugin). Only the draft changes: a PUBLISHED workflow
   * whose content changes shows DRAFT ("unpublished changes") while its published version
   * keeps serving and it stays active (docs/workflows.md "Live version and draft"). Each
   * save is kept in the history.
   */
  async handle(user: User, workspace: Workspace, workflow: Workflow, patch: WorkflowPatch) {
    const updatedBy: WorkflowEditor = patch.updatedBy ?? 'user'
    const next = assertValidWorkflow({
      name: patch.name?.trim() || workflow.name,
      description: patch.description !== undefined ? patch.description : workflow.description,
      icon: patch.icon !== undefined ? patch.icon : workflow.icon,
      blocks: patch.blocks ?? workflow.blocks,
      edges: patch.edges ?? workflow.edges,
      variables: patch.variables ?? workflow.variables,
      settings: patch.settings ?? workflow.settings,
    })

    const before = new Set(nodeTypesOf(workflow))
    const added = nodeTypesOf(next).filter((type) => !before.has(type))
    if (added.length > 0) {
      const { plan } = await planFor(user, workspace)
      await assertPluginsEnabled(added, plan)
    }

    const contentChanged =
      !sameJson(next.blocks, workflow.blocks) ||
      !sameJson(next.edges, workflow.edges) ||
      !sameJson(next.variables, workflow.variables)
    const unpublishedChanges = contentChanged && workflow.status === 'PUBLISHED'

    await db.transaction(async (trx) => {
      // The copilot's first change must leave the builder's own work restorable.
      if (updatedBy === 'assistant') {
        const existing = await WorkflowVersion.query({ client: trx })
          .where('workflow_id', workflow.id)
          .first()
        if (!existing) await recordVersion(workflow, { user, updatedBy: 'user' }, trx)
      }
      workflow.useTransaction(trx)
      workflow.merge({
        name: next.name,
        description: next.description ?? null,
        icon: next.icon ?? null,
        blocks: next.blocks,
        edges: next.edges,
        variables: next.variables,
        settings: next.settings,
        updatedBy,
        ...(updatedBy === 'assistant' ? { isModifiedByAi: true } : {}),
        ...(unpublishedChanges ? { status: 'DRAFT' as const } : {}),
      })
      await claimRevision('workflows', workflow, patch.revision, trx)
      await workflow.save()
      await recordVersion(workflow, { user, updatedBy }, trx)
    })
    return workflow
  }
}

export class DuplicateWorkflow {
  async handle(user: User, workspace: Workspace, workflow: Workflow) {
    const suffix = ' (copy)'
    const base = Array.from(workflow.name)
      .slice(0, WORKFLOW_NAME_MAX_LENGTH - suffix.length)
      .join('')
    return new CreateWorkflow().handle(user, workspace, {
      name: `${base}${suffix}`,
      content: { ...snapshotOf(workflow), isModifiedByAi: !!workflow.isModifiedByAi },
    })
  }
}

export class ArchiveWorkflow {
  /**
   * Archived workflows stop running and leave the list; bringing one back counts against
   * workflowCreation again.
   */
  async handle(user: User, workspace: Workspace, workflow: Workflow, archived = true) {
    if (!!workflow.isArchived === archived) return workflow
    const wasActive = !!workflow.isActive
    if (!archived) {
      await withinPlanLimit({ user, workspace }, 'workflowCreation', async (trx) => {
        workflow.useTransaction(trx)
        workflow.isArchived = false
        await workflow.save()
      })
      return workflow
    }
    workflow.merge({ isArchived: true, isActive: false })
    await workflow.save()
    if (archived && wasActive) {
      await emitWorkflowDeactivated({
        workflowId: workflow.id,
        workspaceId: workflow.workspaceId,
        reason: 'archived',
      })
    }
    return workflow
  }
}

export class DeleteWorkflow {
  /** Its history goes with it (and its runs, by their foreign keys). */
  async handle(workflow: Workflow) {
    const wasActive = !!workflow.isActive
    await workflow.delete()
    if (wasActive) {
      await emitWorkflowDeactivated({
        workflowId: workflow.id,
        workspaceId: workflow.workspaceId,
        reason: 'deleted',
      })
    }
  }
}

/** The workflows of a workspace for the list, most recently changed first. */
export class ListWorkflows {
  handle(workspaceId: string, options: { q?: string | null; archived?: boolean } = {}) {
    const q = options.q?.trim()
    return Workflow.query()
      .where('workspace_id', workspaceId)
      .where('is_archived', !!options.archived)
      .if(q, (query) => {
        // '!' escapes the wildcards the same way on SQLite, PostgreSQL and MySQL.
        const pattern = `%${q!.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`
        query.where((inner) =>
          inner
            .whereRaw(`lower(name) like ? escape '!'`, [pattern])
            .orWhereRaw(`lower(coalesce(description, '')) like ? escape '!'`, [pattern])
        )
      })
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
  }
}
