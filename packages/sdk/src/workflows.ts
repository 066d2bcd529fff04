import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/workflows` (server; `#sdk/workflows` in the app): run a published workflow
 * of the caller's workspace from a plugin and wait for its output. The workflows and their runs
 * are the app's: the call goes through the port.
 */

export type WorkflowCallOutcome =
  | { ok: true; runId: string; output: unknown }
  | { ok: false; reason: 'not-found' | 'not-published' }
  | { ok: false; reason: 'failed'; runId: string; status: string; error: unknown }

export interface WorkflowCallInput {
  workflowId: string
  /** The calling bot; its workspace must own the workflow. */
  botId?: string
  /** The calling workflow's workspace, which must own the workflow. */
  workspaceId?: string
  input: Record<string, unknown>
  signal?: AbortSignal
}

/** The app's side of `@flowcraft/sdk/workflows` (see port.ts). */
export interface WorkflowsPort {
  runWorkflowForPlugin(input: WorkflowCallInput): Promise<WorkflowCallOutcome>
}

/**
 * Runs a published workflow inline for a plugin (a bot's Execute workflow block, a
 * workflow's Execute workflow node) and waits for it, bounded by `signal`. A bot or a
 * workflow may only call workflows of its own workspace.
 */
export async function runWorkflowForPlugin(input: WorkflowCallInput): Promise<WorkflowCallOutcome> {
  return appPort('workflows').runWorkflowForPlugin(input)
}
