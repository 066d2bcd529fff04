import type { BotV6, Group } from '#shared/bot/types'
import { clientDeclaration } from '~/lib/plugin_registry'

/**
 * The groups a loop repeats, each with the loop block that repeats it: the groups reached
 * from the item a plugin declares as repeated (`items.repeats`, a Loop's "Each iteration"),
 * up to the loop's own group. Computed once per groups and edges arrays (new ones after
 * each edit), since every group node asks on each store change.
 */

type Repeated = Map<string, { blockId: string; blockType: string }>

const cache = new WeakMap<Group[], { edges: BotV6['edges']; repeated: Repeated }>()

function repeatsOf(type: string) {
  return (clientDeclaration(type)?.items as { repeats?: { field: string; equals: string } })
    ?.repeats
}

export function repeatedGroups(bot: Pick<BotV6, 'groups' | 'edges'>): Repeated {
  const known = cache.get(bot.groups)
  if (known && known.edges === bot.edges) return known.repeated
  const repeated: Repeated = new Map()
  const edges = new Map(bot.edges.map((edge) => [edge.id, edge]))
  const groups = new Map(bot.groups.map((group) => [group.id, group]))
  for (const group of bot.groups) {
    for (const block of group.blocks) {
      const repeats = repeatsOf(block.type)
      if (!repeats) continue
      const item = block.items?.find(
        (candidate) => (candidate as Record<string, unknown>)[repeats.field] === repeats.equals
      )
      const first = item?.outgoingEdgeId ? edges.get(item.outgoingEdgeId) : undefined
      const queue = first ? [first.to.groupId] : []
      const seen = new Set<string>([group.id])
      while (queue.length > 0) {
        const id = queue.shift()!
        if (seen.has(id)) continue
        seen.add(id)
        const reached = groups.get(id)
        if (!reached) continue
        if (!repeated.has(id)) repeated.set(id, { blockId: block.id, blockType: block.type })
        for (const inner of reached.blocks) {
          const ids = [inner.outgoingEdgeId, ...(inner.items ?? []).map((i) => i.outgoingEdgeId)]
          for (const edgeId of ids) {
            const edge = edgeId ? edges.get(edgeId) : undefined
            if (edge) queue.push(edge.to.groupId)
          }
        }
      }
    }
  }
  cache.set(bot.groups, { edges: bot.edges, repeated })
  return repeated
}
