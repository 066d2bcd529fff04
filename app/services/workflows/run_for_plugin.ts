import db from '@adonisjs/lucid/services/db'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import type { WorkflowCallInput, WorkflowCallOutcome } from '#sdk/workflows'

/**
 * Runs a published workflow inline for a plugin (a bot's Execute workflow block, a
 * workflow's Execute workflow node) and waits for it, bounded by `signal`. A bot or a
 * workflow may only call workflows of its own workspace. The SDK's WorkflowsPort.
 */
export async function runWorkflowForPlugin(input: WorkflowCallInput): Promise<WorkflowCallOutcome> {
  const workflow = await loadWorkflow(input.workflowId)
  const owner = input.botId
    ? await db.from('bots').where('id', input.botId).select('workspace_id').first()
    : null
  const workspaceId = owner?.workspace_id ?? input.workspaceId
  if (!workflow || (workspaceId && workspaceId !== workflow.workspaceId)) {
    return { ok: false, reason: 'not-found' }
  }
  if (!workflow.executableWorkflow) return { ok: false, reason: 'not-published' }
  const runId = await createRun(workflow, 'api', input.input)
  const outcome = await executeRun(runId, input.signal)
  if (!outcome || outcome.status !== 'success') {
    return {
      ok: false,
      reason: 'failed',
      runId,
      status: outcome?.status ?? 'no result',
      error: outcome?.error ?? null,
    }
  }
  return { ok: true, runId, output: outcome.output }
}
