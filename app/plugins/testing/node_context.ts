import { fileURLToPath } from 'node:url'
import { loadPlugins, type PluginRegistry } from '#plugins/registry'
import { runWithContext, type VariableState } from '#services/runner_context'
import { storedOptionsOf, type Runner } from '#plugins/define_plugin'
import type { WorkflowNodeContext, WorkflowNodeResult } from '#engine/workflow/node_context'
import type { RunTrigger, WorkflowCondition } from '#shared/workflow/types'

/**
 * Runs a workflow node's runner as the server does (runner_context: substitution, guarded
 * HTTP, sandbox), with the workflow part of the context, but without the marketplace
 * lookup so no database is needed.
 */

const ROOT = fileURLToPath(new URL('../../../plugins', import.meta.url))
let registry: Promise<PluginRegistry> | undefined

export interface NodeRunInput {
  input?: unknown
  variables?: VariableState[]
  trigger?: RunTrigger
  conditions?: WorkflowCondition[]
  signal?: AbortSignal
}

export async function runNode(
  id: string,
  options: Record<string, unknown>,
  run: NodeRunInput = {}
) {
  registry ??= loadPlugins(ROOT)
  const plugins = await registry
  const plugin = plugins.get(id)
  if (!plugin) throw new Error(`No plugin ${id}`)
  // Nodes stored under a folded plugin's former id run as the engine runs them.
  const stored = storedOptionsOf(plugin, id, options, 'workflow')
  const action = typeof stored.action === 'string' ? stored.action : undefined
  const runner = (await plugins.runnerOf(id, action)) as Runner<any, any> | undefined
  if (!runner) throw new Error(`No runner for ${id}`)
  const workflow: WorkflowNodeContext = {
    runId: 'run1',
    workflowId: 'wf1',
    node: { id: 'node1', type: id },
    input: run.input ?? null,
    trigger: run.trigger ?? 'manual',
    attempt: 1,
    conditions: run.conditions ?? [],
    evaluateCondition: () => false,
  }
  const output = await runWithContext((context) => runner({ ...context, workflow } as any), {
    plugin,
    options: stored,
    variables: run.variables ?? [],
    workspaceId: 'ws1',
    signal: run.signal,
  })
  return {
    result: (output.result ?? {}) as WorkflowNodeResult,
    logs: output.logs,
    variablesSet: output.variablesSet,
    errors: output.logs.filter((log) => log.status === 'error').map((log) => log.description),
  }
}
