import WorkflowRun from '#models/workflow_run'
import type { WorkflowRunSummaryDto } from '#shared/workflow/dto'

export function runSummary(run: WorkflowRun): WorkflowRunSummaryDto {
  return {
    id: run.id,
    workflowId: run.workflowId,
    status: run.status,
    trigger: run.trigger,
    isTest: !!run.isTest,
    error: run.error,
    startedAt: run.startedAt?.toISO() ?? null,
    finishedAt: run.finishedAt?.toISO() ?? null,
    durationMs: run.durationMs,
    createdAt: run.createdAt.toISO(),
  }
}

export interface WebhookCallInput {
  method: string
  headers: Record<string, string | string[] | undefined>
  query: Record<string, unknown>
  body: unknown
}
export type ToInput = (call: WebhookCallInput) => unknown
