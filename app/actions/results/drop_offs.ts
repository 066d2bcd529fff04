import type { Block, Edge, Group } from '#shared/bot/types'
import type { ResultsGraph } from '#actions/results/result_columns'

interface Position {
  group: Group
  index: number
}

/** The text a choice item shows (choice buttons) or its title (picture choices). */
function itemText(item: NonNullable<Block['items']>[number]) {
  if (typeof item.content === 'string') return item.content.trim()
  if (typeof item.title === 'string') return item.title.trim()
  return ''
}

/**
 * Where visitors go next in a flow, for the drop-off analytics: the first input block a
 * visitor meets after answering an input (or after the start). Branches are walked
 * breadth first: with a choice input the chosen item's path is followed; where logic
 * blocks branch (conditions, A/B tests), the first input found on any path counts.
 */
export function nextInputFinder(graph: ResultsGraph, isInput: (block: Block) => boolean) {
  const groups = new Map(graph.groups.map((group) => [group.id, group]))
  const edges = new Map(graph.edges.map((edge) => [edge.id, edge]))
  const bySource = new Map<string, Edge>()
  for (const edge of graph.edges) {
    const from = edge.from as { blockId?: string; itemId?: string; eventId?: string }
    if (from.eventId) bySource.set(`event:${from.eventId}`, edge)
    else if (from.blockId) bySource.set(`${from.blockId}:${from.itemId ?? ''}`, edge)
  }
  const located = new Map<string, Position>()
  for (const group of graph.groups) {
    for (const [index, block] of (group.blocks ?? []).entries())
      located.set(block.id, { group, index })
  }

  const target = (edge: Edge | undefined): Position | null => {
    if (!edge) return null
    const group = groups.get(edge.to.groupId)
    if (!group) return null
    const index = edge.to.blockId ? group.blocks.findIndex((b) => b.id === edge.to.blockId) : 0
    return { group, index: Math.max(index, 0) }
  }
  const blockEdge = (block: Block) =>
    (block.outgoingEdgeId ? edges.get(block.outgoingEdgeId) : undefined) ??
    bySource.get(`${block.id}:`)
  const itemEdge = (block: Block, item: NonNullable<Block['items']>[number]) =>
    (item.outgoingEdgeId ? edges.get(item.outgoingEdgeId) : undefined) ??
    bySource.get(`${block.id}:${item.id}`)
  /** After a block: its own edge, else the next block of its group. */
  const onward = (at: Position): Position | null => {
    const block = at.group.blocks[at.index]
    const edge = blockEdge(block)
    if (edge) return target(edge)
    return at.index + 1 < at.group.blocks.length ? { group: at.group, index: at.index + 1 } : null
  }

  const firstInput = (starts: (Position | null)[]): string | null => {
    const queue = starts.filter((p): p is Position => !!p)
    const seen = new Set<string>()
    while (queue.length > 0) {
      const at = queue.shift()!
      const key = `${at.group.id}:${at.index}`
      if (seen.has(key)) continue
      seen.add(key)
      const block = at.group.blocks[at.index]
      if (!block) continue
      if (isInput(block)) return block.id
      for (const item of block.items ?? []) {
        const next = target(itemEdge(block, item))
        if (next) queue.push(next)
      }
      const next = onward(at)
      if (next) queue.push(next)
    }
    return null
  }

  const start = graph.events.find((event) => event.type === 'start')
  const startEdge = start
    ? ((start.outgoingEdgeId ? edges.get(start.outgoingEdgeId) : undefined) ??
      bySource.get(`event:${start.id}`))
    : undefined

  return {
    /** The first input after the start. */
    fromStart(): string | null {
      if (startEdge) return firstInput([target(startEdge)])
      const first = graph.groups[0]
      return first ? firstInput([{ group: first, index: 0 }]) : null
    },
    /** The next input after answering `blockId` (with `choice`, the answer of a choice). */
    after(blockId: string, choice?: string | null): string | null {
      const at = located.get(blockId)
      if (!at) return null
      const block = at.group.blocks[at.index]
      const chosen = choice
        ? (block.items ?? []).find((item) => itemText(item) === choice.trim())
        : undefined
      const viaItem = chosen ? target(itemEdge(block, chosen)) : null
      if (viaItem) return firstInput([viaItem])
      // Unknown choice (several picked, item renamed): the default path, then every item's.
      const items = (block.items ?? []).map((item) => target(itemEdge(block, item)))
      return firstInput([onward(at), ...items])
    },
  }
}
