import type { Runner } from '#sdk/plugin'
import { readPath, toVariableValue } from '#sdk/runner'
import { runWorkflowForPlugin } from '#sdk/workflows'
import type plugin from './index.js'

/** A chat waits for the workflow: it runs inline, bounded by the workflow's own timeout. */
export const run: Runner<typeof plugin> = async ({ options, bot, logger, signal }) => {
  const workflowId = options.workflowId?.trim()
  if (!workflowId) {
    logger.error('Execute workflow: no workflow selected')
    return {}
  }
  const input = Object.fromEntries(
    (options.inputs ?? [])
      .filter((entry) => entry.key)
      .map((entry) => [entry.key!, entry.value ?? ''])
  )
  const outcome = await runWorkflowForPlugin({ workflowId, botId: bot?.botId, input, signal })
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
  const variablesToSet = (options.variableMappings ?? [])
    .filter((mapping) => mapping.variableId)
    .map((mapping) => ({
      id: mapping.variableId!,
      value: toVariableValue(readPath(outcome.output, mapping.bodyPath)),
    }))
  return { variablesToSet }
}
