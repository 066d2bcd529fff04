import db from '@adonisjs/lucid/services/db'
import type { Runner } from '../../app/plugins/define_plugin.js'
import { readPath, toVariableValue } from '../../app/plugins/json_path.js'
import { createRun, executeRun, loadWorkflow } from '../../app/services/workflows/run_workflow.js'
import type plugin from './index.js'

/** A chat waits for the workflow: it runs inline, bounded by the workflow's own timeout. */
export const run: Runner<typeof plugin> = async ({ options, bot, logger, signal }) => {
  const workflowId = options.workflowId?.trim()
  if (!workflowId) {
    logger.error('Execute workflow: no workflow selected')
    return {}
  }
  const workflow = await loadWorkflow(workflowId)
  const owner = bot
    ? await db.from('bots').where('id', bot.botId).select('workspace_id').first()
    : null
  if (!workflow || (owner && owner.workspace_id !== workflow.workspaceId)) {
    logger.error('Execute workflow: the workflow was not found in this workspace')
    return {}
  }
  if (!workflow.executableWorkflow) {
    logger.error('Execute workflow: the workflow is not published')
    return {}
  }
  const input = Object.fromEntries(
    (options.inputs ?? [])
      .filter((entry) => entry.key)
      .map((entry) => [entry.key!, entry.value ?? ''])
  )
  const runId = await createRun(workflow, 'api', input)
  const outcome = await executeRun(runId, signal)
  if (!outcome || outcome.status !== 'success') {
    logger.error(`Execute workflow: the run ended with ${outcome?.status ?? 'no result'}`, {
      runId,
      error: outcome?.error ?? null,
    })
    return {}
  }
  logger.success('Workflow executed', { runId, output: outcome.output })
  const variablesToSet = (options.variableMappings ?? [])
    .filter((mapping) => mapping.variableId)
    .map((mapping) => ({
      id: mapping.variableId!,
      value: toVariableValue(readPath(outcome.output, mapping.bodyPath)),
    }))
  return { variablesToSet }
}
