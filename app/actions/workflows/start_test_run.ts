import AppError from '#exceptions/app_error'
import { upstreamExecutable } from '#shared/workflow/validate'
import type User from '#models/user'
import { pluginRegistry } from '#services/plugin_registry'
import { createRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { dispatchRun } from '#services/workflows/jobs'
import Workspace from '#models/workspace'
import { findWorkflowFor } from './workflow_access.js'
import { compileDraft } from './publish_workflow.js'
import { ToInput } from './workflow_runs.js'

/** What a test run asks beyond its sample payload (docs/workflows.md "Test runs"). */
export interface TestRunOptions {
  /** "Test this step": only this node and its upstream run. */
  nodeId?: string
  /** false: the trigger's pinned data is not used (a payload typed for this run is). */
  usePinned?: boolean
}

/**
 * A test run of the draft as it is now, published or not (docs/workflows.md "Test runs"):
 * the draft is compiled with the checks of a publish and kept with the run. A trigger that
 * takes webhook calls gets `input` as the body of a sample call; other triggers get it as
 * it is; a trigger with pinned data gives that instead of running. Test runs do not count
 * in the published version's runs.
 */
export class StartTestRun {
  async handle(user: User, workflowId: string, input: unknown, options: TestRunOptions = {}) {
    const { workflow } = await findWorkflowFor(user, workflowId, 'write')
    const workspace = await Workspace.findOrFail(workflow.workspaceId)
    const compiled = await compileDraft(user, workspace, workflow, 'running')
    let executable = compiled.executable
    if (options.nodeId) {
      const upstream = upstreamExecutable(executable, options.nodeId)
      if (!upstream) {
        throw new AppError('This node is not reached from the trigger', { status: 422 })
      }
      executable = upstream
    }
    const draftRoot = (workflow.blocks ?? []).find((block) => block.id === executable.root_block)
    const pinned = options.usePinned !== false ? draftRoot?.pinnedData : undefined
    if (pinned !== undefined) {
      executable = {
        ...executable,
        blocks: executable.blocks.map((block) =>
          block.id === executable.root_block ? { ...block, pinnedData: pinned } : block
        ),
      }
    }
    const root = executable.blocks.find((block) => block.id === executable.root_block)!
    const toInput = await (await pluginRegistry()).exportOf<ToInput>(root.type, 'webhookInput')
    const runInput = toInput
      ? toInput({ method: 'POST', headers: {}, query: {}, body: input ?? null })
      : (input ?? {})
    const runnable = await loadWorkflow(workflow.id)
    const runId = await createRun(runnable!, 'manual', runInput, { test: executable })
    await dispatchRun(runId)
    return { runId }
  }
}
