import type { WorkflowRunner } from '#sdk/runner'
import type plugin from './index.js'

/**
 * The first branch whose condition holds is followed; none: the node's default edge. The
 * executor evaluates with the bot engine's operators, variables and {{$...}} references.
 */
export const run: WorkflowRunner<typeof plugin> = ({ workflow, logger }) => {
  if (!workflow) return
  for (const [index, branch] of workflow.conditions.entries()) {
    if (workflow.evaluateCondition(branch.content)) {
      logger.info(`Branch ${index + 1} matched`)
      return { conditionId: branch.id }
    }
  }
  logger.info('No branch matched: the default path is taken')
  return { conditionId: null }
}
