import type { Group } from '#shared/bot/types'
import type { EngineBot, EnginePorts } from './ports.js'
import type { SessionState } from './state.js'

/**
 * The bot's graph as the engine walks it: groups and edges by id, and the count of inputs
 * left on the way from the awaited block (the progress bar).
 */

export type Position = { group: Group; index: number }

/**
 * A bot's groups and edges by id. A published bot's content is one object turn after turn
 * (bot_cache.ts) and never changes, so it is indexed once; the turn's walk looked each edge
 * and group up with a scan, several times per block.
 */
const indexes = new WeakMap<object, { groups: Map<string, Group>; edges: Map<string, Edge> }>()

export type Edge = EngineBot['content']['edges'][number]

export function indexOf(content: EngineBot['content']) {
  let index = indexes.get(content)
  if (!index) {
    index = { groups: new Map(), edges: new Map() }
    // The first of a duplicated id wins, as the scans it replaces found it.
    for (const group of content.groups)
      if (!index.groups.has(group.id)) index.groups.set(group.id, group)
    for (const edge of content.edges) if (!index.edges.has(edge.id)) index.edges.set(edge.id, edge)
    indexes.set(content, index)
  }
  return index
}

/**
 * The inputs the flow can still reach from the awaited block, every branch counted (a
 * progress bar's estimate, not a path).
 */
export function remainingInputs(
  content: EngineBot['content'],
  awaiting: NonNullable<SessionState['awaiting']>,
  categoryOf: EnginePorts['categoryOf']
): number {
  const edges = new Map(content.edges.map((e) => [e.id, e]))
  const seen = new Set<string>()
  let count = 0
  const queue: string[] = [awaiting.groupId]
  let first = true
  while (queue.length > 0 && seen.size < 1000) {
    const groupId = queue.shift()!
    if (seen.has(groupId)) continue
    seen.add(groupId)
    const group = indexOf(content).groups.get(groupId)
    if (!group) continue
    const start = first
      ? Math.max(
          group.blocks.findIndex((b) => b.id === awaiting.blockId),
          0
        )
      : 0
    first = false
    for (const block of group.blocks.slice(start)) {
      if (categoryOf(block.type) === 'input') count++
      const edgeIds = [block.outgoingEdgeId, ...(block.items ?? []).map((i) => i.outgoingEdgeId)]
      for (const id of edgeIds) {
        const edge = id ? edges.get(id) : undefined
        if (edge) queue.push(edge.to.groupId)
      }
    }
  }
  return count
}
