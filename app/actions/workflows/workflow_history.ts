import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import db from '@adonisjs/lucid/services/db'
import type Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { snapshotOf } from '#dtos/workflow_dto'
import { emitWorkflowDeactivated } from '#services/workflow_events'
import type { WorkflowEditor } from '#shared/workflow/types'

/** The first version is 'Initial Version', the n-th 'Version n' (spec 01 "Copilot flow"). */
export function versionName(position: number) {
  return position <= 1 ? 'Initial Version' : `Version ${position}`
}

function versionsQuery(workflowId: string, client?: TransactionClientContract) {
  return WorkflowVersion.query(client ? { client } : {})
    .where('workflow_id', workflowId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
}

/**
 * Keeps the history after a save. A person's save updates the latest version when that
 * one is a person's too, else opens a new one; every copilot change opens a new one, so
 * each can be undone. `append` always opens a new one (a restore must not overwrite the
 * version a person might want back).
 */
export async function recordVersion(
  workflow: Workflow,
  actor: { user: User | null; updatedBy: WorkflowEditor },
  trx: TransactionClientContract,
  options: { append?: boolean } = {}
) {
  const versions = await versionsQuery(workflow.id, trx)
  const latest = versions[0]
  if (!options.append && actor.updatedBy === 'user' && latest?.updatedBy === 'user') {
    latest.useTransaction(trx)
    latest.merge({ workflow: snapshotOf(workflow), userId: actor.user?.id ?? latest.userId })
    await latest.save()
    return latest
  }
  return WorkflowVersion.create(
    {
      workflowId: workflow.id,
      versionName: versionName(versions.length + 1),
      workflow: snapshotOf(workflow),
      userId: actor.user?.id ?? null,
      updatedBy: actor.updatedBy,
    },
    { client: trx }
  )
}

export class ListWorkflowVersions {
  handle(workflow: Workflow) {
    return versionsQuery(workflow.id)
  }
}

/**
 * Copies a version's content (nodes, edges, variables, settings) over the draft, keeping
 * the draft's name, description and icon. The result is a draft again: it must be
 * published before it runs. The restored content becomes a new version of its own.
 */
export class RestoreWorkflowVersion {
  async handle(user: User, _workspace: Workspace, workflow: Workflow, versionId: string) {
    const version = await WorkflowVersion.query()
      .where('id', versionId)
      .where('workflow_id', workflow.id)
      .first()
    if (!version) throw AppError.notFound('Version not found')
    const wasActive = !!workflow.isActive
    await db.transaction(async (trx) => {
      workflow.useTransaction(trx)
      workflow.merge({
        blocks: version.workflow.blocks,
        edges: version.workflow.edges,
        variables: version.workflow.variables,
        settings: version.workflow.settings,
        status: 'DRAFT',
        isActive: false,
        updatedBy: 'user',
      })
      await workflow.save()
      await recordVersion(workflow, { user, updatedBy: 'user' }, trx, { append: true })
    })
    if (wasActive) {
      await emitWorkflowDeactivated({
        workflowId: workflow.id,
        workspaceId: workflow.workspaceId,
        reason: 'restored',
      })
    }
    return workflow
  }
}
