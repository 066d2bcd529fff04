import WorkflowRun from '#models/workflow_run'
import type User from '#models/user'
import { findWorkflowFor } from './workflow_access.js'
import { runSummary } from './workflow_runs.js'

export class ListRuns {
  /** Newest first; test runs of the draft only with `tests` (they are not the live version's). */
  async handle(user: User, workflowId: string, limit = 50, options: { tests?: boolean } = {}) {
    await findWorkflowFor(user, workflowId, 'read')
    const runs = await WorkflowRun.query()
      .where('workflow_id', workflowId)
      .if(!options.tests, (query) => query.where('is_test', false))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(Math.min(Math.max(limit, 1), 200))
    return { runs: runs.map(runSummary) }
  }
}
