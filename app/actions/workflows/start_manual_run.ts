import AppError from '#exceptions/app_error'
import type User from '#models/user'
import { createRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { dispatchRun } from '#services/workflows/jobs'
import { findWorkflowFor } from './workflow_access.js'

export class StartManualRun {
  async handle(user: User, workflowId: string, input: unknown) {
    const { workflow } = await findWorkflowFor(user, workflowId, 'write')
    if (workflow.status !== 'PUBLISHED' || !workflow.executableWorkflow) {
      throw new AppError('Publish the workflow before running it', { status: 400 })
    }
    const runnable = await loadWorkflow(workflow.id)
    const runId = await createRun(runnable!, 'manual', input ?? {})
    await dispatchRun(runId)
    return { runId }
  }
}
