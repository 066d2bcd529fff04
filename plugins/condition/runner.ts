import type { SurfaceRunner } from '#sdk/runner'
import type plugin from './index.js'

/**
 * The first branch whose condition holds is followed. A bot leaves through the item's edge;
 * a holding item left unconnected ends the path there, as in the format's own engine (the
 * blocks after the Condition are for the Else case); none holds: the block's own edge
 * (Else), or the next block. A workflow node leaves through the branch's `conditionId`
 * (null: the default edge). Both evaluate with the bot engine's operators.
 */
export const run: SurfaceRunner<typeof plugin> = ({ surface, bot, workflow, logger }) => {
  if (surface === 'bot') {
    for (const item of bot?.block.items ?? []) {
      if (!bot!.evaluateCondition(item.content)) continue
      return item.outgoingEdgeId ? { outgoingEdgeId: item.outgoingEdgeId } : { endPath: true }
    }
    return {}
  }
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

export { fromN8n } from './n8n.js'
