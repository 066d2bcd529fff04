import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** The first branch whose condition holds is followed; none: the block's own edge (Else). */
export const run: Runner<typeof plugin> = ({ bot }) => {
  for (const item of bot?.block.items ?? []) {
    if (bot!.evaluateCondition(item.content)) return { outgoingEdgeId: item.outgoingEdgeId }
  }
  return {}
}
