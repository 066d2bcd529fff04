import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Path A for aPercent of the visitors, path B for the others. */
export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const percent = Math.min(Math.max(Number(options.aPercent ?? 50), 0), 100)
  const path = Math.random() * 100 < percent ? 'a' : 'b'
  const items = bot?.block.items ?? []
  const item = items.find((candidate) => candidate.path === path) ?? items[path === 'a' ? 0 : 1]
  return { outgoingEdgeId: item?.outgoingEdgeId }
}
