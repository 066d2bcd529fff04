import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { snapshotOf } from '#dtos/workflow_dto'
import type { WorkflowEditor } from '#shared/workflow/types'
import type { VersionKind } from '#shared/history/types'

/** The first version is 'Initial Version', the n-th 'Version n'. */
export function versionName(position: number) {
  return position <= 1 ? 'Initial Version' : `Version ${position}`
}

export function versionsQuery(workflowId: string, client?: TransactionClientContract) {
  return WorkflowVersion.query(client ? { client } : {})
    .where('workflow_id', workflowId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
}

/**
 * Keeps the history after a change (docs/workflows.md "History"). A person's autosave
 * updates the latest version while that one is their open draft version, else opens one;
 * every other kind (publish, restore, named save, each copilot change) opens a version that
 * stays as it was, so none of them is ever overwritten by later edits.
 */
export async function recordVersion(
  workflow: Workflow,
  actor: { user: User | null; updatedBy: WorkflowEditor },
  trx: TransactionClientContract,
  options: { kind?: VersionKind; name?: string } = {}
) {
  // A person's version names its author; without one it would read as nobody's: the
  // builder is told the user was not found.
  if (actor.updatedBy === 'user' && !actor.user) throw AppError.notFound('User not found.')
  const kind: VersionKind =
    options.kind ?? (actor.updatedBy === 'assistant' ? 'assistant' : 'draft')
  const versions = await versionsQuery(workflow.id, trx)
  const latest = versions[0]
  if (kind === 'draft' && latest?.kind === 'draft' && latest.updatedBy === 'user') {
    latest.useTransaction(trx)
    latest.merge({ workflow: snapshotOf(workflow), userId: actor.user?.id ?? latest.userId })
    await latest.save()
    return latest
  }
  return WorkflowVersion.create(
    {
      workflowId: workflow.id,
      versionName: options.name?.trim() || versionName(versions.length + 1),
      kind,
      workflow: snapshotOf(workflow),
      userId: actor.user?.id ?? null,
      updatedBy: actor.updatedBy,
    },
    { client: trx }
  )
}
