import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import type Workflow from '#models/workflow'
import type WorkflowVersion from '#models/workflow_version'
import type User from '#models/user'
import type { UserMode } from '#shared/workspace_roles'
import type { VersionAuthorDto } from '#shared/history/types'
import type { WorkflowJson, WorkflowSnapshot } from '#shared/workflow/types'
import type {
  WorkflowDto,
  WorkflowHistoryDto,
  WorkflowSummaryDto,
  WorkflowVersionDto,
} from '#shared/workflow/dto'

/** The latest run of each workflow, in one query (the list's "Last run" column). */
export async function lastRunTimes(workflowIds: string[]): Promise<Map<string, string>> {
  if (workflowIds.length === 0) return new Map()
  const rows = await db
    .from('workflow_runs')
    .whereIn('workflow_id', workflowIds)
    .where('is_test', false)
    .groupBy('workflow_id')
    .select('workflow_id')
    .max('created_at as last')
  return new Map(
    rows
      .filter((row) => row.last)
      .map((row) => [row.workflow_id, DateTime.fromJSDate(new Date(row.last)).toISO()!])
  )
}

export function toWorkflowSummaryDto(
  workflow: Workflow,
  lastRuns: Map<string, string> = new Map()
): WorkflowSummaryDto {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    icon: workflow.icon,
    status: workflow.status,
    isActive: !!workflow.isActive,
    isArchived: !!workflow.isArchived,
    publishedAt: workflow.publishedAt?.toISO() ?? null,
    lastRunAt: lastRuns.get(workflow.id) ?? null,
    createdAt: workflow.createdAt.toISO()!,
    updatedAt: workflow.updatedAt.toISO()!,
  }
}

/** The whole workflow as JSON: what export writes and import reads. */
export function toWorkflowJson(workflow: Workflow): WorkflowJson {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    icon: workflow.icon,
    version: workflow.version,
    status: workflow.status,
    isActive: !!workflow.isActive,
    blocks: workflow.blocks,
    edges: workflow.edges,
    variables: workflow.variables,
    settings: workflow.settings,
    executableWorkflow: workflow.executableWorkflow,
    isArchived: !!workflow.isArchived,
    workspaceId: workflow.workspaceId,
    updatedBy: workflow.updatedBy,
    isModifiedByAi: !!workflow.isModifiedByAi,
    revision: workflow.revision ?? 0,
    publishedAt: workflow.publishedAt?.toISO() ?? null,
    createdAt: workflow.createdAt.toISO()!,
    updatedAt: workflow.updatedAt.toISO()!,
  }
}

export function toWorkflowDto(workflow: Workflow, mode: UserMode): WorkflowDto {
  return { workflow: toWorkflowJson(workflow), currentUserMode: mode }
}

/** The content a history version keeps. */
export function snapshotOf(workflow: Workflow): WorkflowSnapshot {
  return {
    name: workflow.name,
    description: workflow.description,
    icon: workflow.icon,
    blocks: workflow.blocks,
    edges: workflow.edges,
    variables: workflow.variables,
    settings: workflow.settings,
  }
}

/** A version's author as the history lists it (the relation when it was preloaded). */
export function authorOf(user: User | null | undefined): VersionAuthorDto | null {
  return user ? { id: user.id, name: user.name, email: user.email } : null
}

export function toWorkflowVersionDto(version: WorkflowVersion): WorkflowVersionDto {
  return {
    id: version.id,
    versionName: version.versionName,
    kind: version.kind ?? 'draft',
    workflow: version.workflow,
    userId: version.userId,
    author: authorOf(version.userId ? version.user : null),
    updatedBy: version.updatedBy,
    createdAt: version.createdAt.toISO()!,
    updatedAt: version.updatedAt.toISO()!,
  }
}

/** Versions come newest first. */
export function toWorkflowHistoryDto(versions: WorkflowVersion[]): WorkflowHistoryDto {
  const latest = versions.reduce<WorkflowVersion | null>(
    (found, version) => (!found || version.updatedAt > found.updatedAt ? version : found),
    null
  )
  return {
    versions: versions.map(toWorkflowVersionDto),
    updatedAt: latest?.updatedAt.toISO() ?? null,
  }
}
