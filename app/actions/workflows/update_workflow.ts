import db from '@adonisjs/lucid/services/db'
import { claimRevision } from '#services/draft_revision'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { planFor } from '#services/capabilities'
import { assertPluginsEnabled } from '#services/marketplace'
import {
  type WorkflowBlock,
  type WorkflowEdge,
  type WorkflowEditor,
  type WorkflowSettings,
  type WorkflowVariable,
} from '#shared/workflow/types'
import { nodeTypesOf } from '#shared/workflow/validate'
import { sameJson } from '#shared/history/diff'
import { recordVersion } from './workflow_history.js'
import { assertValidWorkflow } from './workflows.js'

/** JSON equality that ignores key order (the editor may rebuild objects in another order). */
export { sameJson }

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
