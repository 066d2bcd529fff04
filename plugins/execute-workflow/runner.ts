import { readPath, toVariableValue, type SurfaceRunner } from '#sdk/runner'
import { runWorkflowForPlugin } from '#sdk/workflows'
import type plugin from './index.js'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A chat or a calling run waits for the workflow: it runs inline, bounded by the caller's
 * timeout. A workflow node passes its own input when no input is set, and outputs the
 * called workflow's output.
 */
export const run: SurfaceRunner<typeof plugin> = async (context) => {
  const { options, bot, logger, signal, surface, workflow } = context
  const workflowId = options.workflowId?.trim()
  if (!workflowId) {
    logger.error('Execute workflow: no workflow selected')
    return {}
  }
  const entries = (options.inputs ?? []).filter((entry) => entry.key)
  const given = Object.fromEntries(entries.map((entry) => [entry.key!, entry.value ?? '']))
  const inWorkflow = surface === 'workflow'
  if (inWorkflow && workflow?.workflowId === workflowId) {
    throw new Error('Execute workflow: a workflow cannot run itself')
  }
  const nodeInput = workflow?.input
  const input =
    inWorkflow && entries.length === 0
      ? isRecord(nodeInput)
        ? nodeInput
        : { input: nodeInput ?? null }
      : given
  const outcome = await runWorkflowForPlugin({
    workflowId,
    botId: bot?.botId,
    workspaceId: inWorkflow ? context.workspaceId : undefined,
    input,
    signal,
  })
  if (!outcome.ok) {
    if (outcome.reason === 'failed') {
      logger.error(`Execute workflow: the run ended with ${outcome.status}`, {
        runId: outcome.runId,
        error: outcome.error,
      })
    } else {
      logger.error(
        outcome.reason === 'not-found'
          ? 'Execute workflow: the workflow was not found in this workspace'
          : 'Execute workflow: the workflow is not published'
      )
    }
    return {}
  }
  const runId = outcome.runId
  logger.success('Workflow executed', { runId, output: outcome.output })
  if (inWorkflow) return { output: outcome.output }
  const variablesToSet = (options.variableMappings ?? [])
    .filter((mapping) => mapping.variableId)
    .map((mapping) => ({
      id: mapping.variableId!,
      value: toVariableValue(readPath(outcome.output, mapping.bodyPath)),
    }))
  return { variablesToSet }
}

export { fromN8n } from './n8n.js'
