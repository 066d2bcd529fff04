import AppError from '#exceptions/app_error'
import WorkflowRun from '#models/workflow_run'
import { dispatch } from '#queue/queue'
import { resumeRun } from '#services/workflows/run_workflow'
import { resumeJob } from '#services/workflows/jobs'
import { WebhookCallInput } from './workflow_runs.js'

/** A call to the URL a wait node waits on: the run goes on with the call as the node's output. */
export class ResumeWaitingRun {
  async handle(workflowId: string, runId: string, call: WebhookCallInput) {
    const run = await WorkflowRun.find(runId)
    if (
      !run ||
      run.workflowId !== workflowId ||
      run.status !== 'waiting' ||
      !run.waitingForWebhookNode
    ) {
      throw new AppError('No run is waiting for this call', { status: 404 })
    }
    const payload = { body: call.body, query: call.query, method: call.method }
    const nodeId = run.waitingForWebhookNode
    const outcome = await resumeRun(runId, payload, { nodeId })
    if (outcome?.deferred) {
      // The workflow has its maximum of runs going on: the call is kept in the run's resume
      // job, which goes on once a slot is free.
      await dispatch(resumeJob, { runId, nodeId, payload }, { jobId: `${runId}:${nodeId}` })
    }
    return { runId, status: outcome?.status ?? run.status }
  }
}
