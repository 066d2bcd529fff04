import AppError from '#exceptions/app_error'
import WorkflowRun from '#models/workflow_run'
import type User from '#models/user'
import type { WorkflowRunDetailDto } from '#shared/workflow/dto'
import { findWorkflowFor } from './workflow_access.js'
import { runSummary } from './workflow_runs.js'
import type { LogEntry } from '#plugins/define_plugin'

export class ShowRun {
  async handle(user: User, runId: string): Promise<{ run: WorkflowRunDetailDto }> {
    const run = await WorkflowRun.query()
      .where('id', runId)
      .preload('nodes', (query) => query.orderBy('id', 'asc'))
      .first()
    if (!run) throw AppError.notFound('Run not found')
    await findWorkflowFor(user, run.workflowId, 'read').catch(() => {
      throw AppError.notFound('Run not found')
    })
    return {
      run: {
        ...runSummary(run),
        input: run.input,
        output: run.output,
        nodes: run.nodes.map((node) => ({
          ...nodeFailure(node.logs as LogEntry[] | null),
          nodeId: node.nodeId,
          nodeType: node.nodeType,
          status: node.status,
          input: node.input,
          output: node.output,
          logs: (node.logs as unknown[] | null) ?? [],
          attempts: node.attempts,
          startedAt: node.startedAt?.toISO() ?? null,
          finishedAt: node.finishedAt?.toISO() ?? null,
          durationMs: node.durationMs,
        })),
      },
    }
  }
}

/** A failed node's error and its cause, as its runner logged them (the first error). */
function nodeFailure(logs: LogEntry[] | null) {
  const failure = (logs ?? []).find((log) => log.status === 'error')
  return {
    error: failure?.description ?? null,
    errorDetails: failure?.details === undefined ? null : failure.details,
  }
}
