import db from '@adonisjs/lucid/services/db'
import { claimRevision } from '#services/draft_revision'
import type Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { recordVersion } from './workflow_history.js'

/**
 * Copies a version's content (nodes, edges, variables, settings) over the draft, keeping
 * the draft's name, description and icon. Only the draft changes: a published version
 * keeps serving, and the workflow stays active, until the builder publishes
 * (docs/workflows.md "Live version and draft"). The restored content becomes a new
 * version of its own.
 */
export class RestoreWorkflowVersion {
  async handle(user: User, _workspace: Workspace, workflow: Workflow, versionId: string) {
    const version = await WorkflowVersion.query()
      .where('id', versionId)
      .where('workflow_id', workflow.id)
      .first()
    if (!version) throw AppError.notFound('Version not found')
    await db.transaction(async (trx) => {
      workflow.useTransaction(trx)
      workflow.merge({
        blocks: version.workflow.blocks,
        edges: version.workflow.edges,
        variables: version.workflow.variables,
        settings: version.workflow.settings,
        status: 'DRAFT',
        updatedBy: 'user',
      })
      await claimRevision('workflows', workflow, undefined, trx)
      await workflow.save()
      await recordVersion(workflow, { user, updatedBy: 'user' }, trx, { kind: 'restore' })
    })
    return workflow
  }
}
