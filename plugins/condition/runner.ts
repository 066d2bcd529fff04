import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/**
 * The first branch whose condition holds is followed; a holding branch left unconnected
 * ends the path there, as in the format's own engine (the blocks after the Condition are
 * for the Else case). None holds: the block's own edge (Else), or the next block.
 */
export const run: Runner<typeof plugin> = ({ bot }) => {
  for (const item of bot?.block.items ?? []) {
    if (!bot!.evaluateCondition(item.content)) continue
    return item.outgoingEdgeId ? { outgoingEdgeId: item.outgoingEdgeId } : { endPath: true }
  }
  return {}
}
