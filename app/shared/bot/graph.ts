/**
 * Small graph helpers shared by migration, validation and the editing operations.
 * Nothing here mutates its input; unchanged groups and blocks keep their identity so
 * that the editor's memoised nodes do not re-render.
 */
import type { Block, BotV6, Edge, EdgeSource, Group } from './types.js'

export function isPlainObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * An imported file's content: the value itself, or its JSON text parsed. Text that is not
 * JSON throws the importer's own error (`refuse`), with the parser's as its cause.
 */
export function parsedImport(raw: unknown, refuse: (cause: unknown) => Error): unknown {
  if (typeof raw !== 'string') return raw
  try {
    return JSON.parse(raw)
  } catch (error) {
    throw refuse(error)
  }
}

/** Applies fn to every string inside value (objects and lists walked, others kept). */
export function mapStrings(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === 'string') return fn(value)
  if (Array.isArray(value)) return value.map((entry) => mapStrings(entry, fn))
  if (isPlainObject(value)) {
    const mapped: Record<string, unknown> = {}
    for (const [key, entry] of Object.entries(value)) mapped[key] = mapStrings(entry, fn)
    return mapped
  }
  return value
}

/** Coordinates are stored with 2 decimals, rounded on every move. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100
}

export function isEventSource(from: EdgeSource): from is { eventId: string } {
  return typeof (from as { eventId?: unknown }).eventId === 'string'
}

/** One string per source, so that "one edge per source" can be checked with a map. */
export function sourceKey(from: EdgeSource): string {
  if (isEventSource(from)) return `event:${from.eventId}`
  if (from.timeout) return `timeout:${from.blockId}`
  return from.itemId ? `item:${from.blockId}:${from.itemId}` : `block:${from.blockId}`
}

/** Whether an edge leaves from a block's "No reply" exit (its reply timeout). */
export function isTimeoutSource(from: EdgeSource): from is { blockId: string; timeout: true } {
  return !isEventSource(from) && from.timeout === true
}

export interface BlockLocation {
  group: Group
  groupIndex: number
  block: Block
  blockIndex: number
}

export function locateBlock(bot: BotV6, blockId: string): BlockLocation | undefined {
  for (const [groupIndex, group] of bot.groups.entries()) {
    const blockIndex = group.blocks.findIndex((block) => block.id === blockId)
    if (blockIndex !== -1) {
      return { group, groupIndex, block: group.blocks[blockIndex], blockIndex }
    }
  }
  return undefined
}

/** A shallow copy without `key` (absent rather than undefined: keeps JSON tidy). */
export function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const copy = { ...value }
  delete copy[key]
  return copy
}

/** Drops the outgoingEdgeId key (rather than setting it to undefined: keeps JSON tidy). */
export function withoutOutgoingEdge<T extends { outgoingEdgeId?: string }>(node: T): T {
  if (!('outgoingEdgeId' in node)) return node
  return omit(node, 'outgoingEdgeId') as unknown as T
}

function withOutgoingEdge<T extends { outgoingEdgeId?: string }>(node: T, edgeId?: string): T {
  if (node.outgoingEdgeId === edgeId) return node
  return edgeId === undefined ? withoutOutgoingEdge(node) : { ...node, outgoingEdgeId: edgeId }
}

/**
 * Brings edges and outgoingEdgeIds back in agreement after any change:
 * - edges whose source (event, block, item) or target (group, block of that group) is
 *   missing are dropped, as are repeated edge ids;
 * - a source keeps one edge: the one its outgoingEdgeId names, else the first found;
 * - every outgoingEdgeId names its source's kept edge, or is removed.
 * Returns the same bot when nothing had to change.
 */
export function pruneEdges(bot: BotV6): BotV6 {
  const eventIds = new Set(bot.events.map((event) => event.id))
  const blocks = new Map<string, { groupId: string; itemIds: Set<string>; timeout: boolean }>()
  const groupBlocks = new Map<string, Set<string>>()
  for (const group of bot.groups) {
    const ids = new Set<string>()
    for (const block of group.blocks) {
      ids.add(block.id)
      blocks.set(block.id, {
        groupId: group.id,
        itemIds: new Set((block.items ?? []).map((item) => item.id)),
        timeout: isPlainObject(block.timeout),
      })
    }
    groupBlocks.set(group.id, ids)
  }

  const isValid = (edge: Edge) => {
    const { from, to } = edge
    if (!isPlainObject(from) || !isPlainObject(to)) return false
    if (isEventSource(from)) {
      if (!eventIds.has(from.eventId)) return false
    } else {
      const source = typeof from.blockId === 'string' ? blocks.get(from.blockId) : undefined
      if (!source) return false
      // The "No reply" exit exists only while the block has a reply timeout.
      if (from.timeout === true) {
        if (!source.timeout || from.itemId !== undefined) return false
      } else if (from.itemId !== undefined && !source.itemIds.has(from.itemId)) return false
    }
    const targetBlocks = typeof to.groupId === 'string' ? groupBlocks.get(to.groupId) : undefined
    if (!targetBlocks) return false
    return to.blockId === undefined || targetBlocks.has(to.blockId)
  }

  const seenIds = new Set<string>()
  const valid = new Map<string, Edge>()
  const bySource = new Map<string, Edge[]>()
  for (const edge of bot.edges) {
    if (typeof edge.id !== 'string' || seenIds.has(edge.id) || !isValid(edge)) continue
    seenIds.add(edge.id)
    valid.set(edge.id, edge)
    const key = sourceKey(edge.from)
    bySource.set(key, [...(bySource.get(key) ?? []), edge])
  }

  const chosen = new Map<string, string>()
  const choose = (key: string, current: string | undefined) => {
    const candidates = bySource.get(key)
    if (!candidates) return undefined
    const preferred = candidates.find((edge) => edge.id === current) ?? candidates[0]
    chosen.set(key, preferred.id)
    return preferred.id
  }

  let changed = false
  const events = bot.events.map((event) => {
    const next = withOutgoingEdge(event, choose(`event:${event.id}`, event.outgoingEdgeId))
    if (next !== event) changed = true
    return next
  })
  const groups = bot.groups.map((group) => {
    let groupChanged = false
    const groupBlocksNext = group.blocks.map((block) => {
      let next = withOutgoingEdge(block, choose(`block:${block.id}`, block.outgoingEdgeId))
      if (isPlainObject(block.timeout)) {
        const timeout = withOutgoingEdge(
          block.timeout,
          choose(`timeout:${block.id}`, block.timeout.outgoingEdgeId)
        )
        if (timeout !== block.timeout) next = { ...next, timeout }
      }
      if (block.items) {
        let itemsChanged = false
        const items = block.items.map((item) => {
          const nextItem = withOutgoingEdge(
            item,
            choose(`item:${block.id}:${item.id}`, item.outgoingEdgeId)
          )
          if (nextItem !== item) itemsChanged = true
          return nextItem
        })
        if (itemsChanged) next = { ...next, items }
      }
      if (next !== block) groupChanged = true
      return next
    })
    if (!groupChanged) return group
    changed = true
    return { ...group, blocks: groupBlocksNext }
  })

  const keptIds = new Set(chosen.values())
  const edges = bot.edges.filter((edge) => keptIds.has(edge.id) && valid.get(edge.id) === edge)
  if (edges.length !== bot.edges.length) changed = true
  return changed ? { ...bot, events, groups, edges } : bot
}

/** Every group, block, item, edge, event and variable id of a bot. */
export function allIds(bot: BotV6): Set<string> {
  const ids = new Set<string>()
  for (const group of bot.groups) {
    ids.add(group.id)
    for (const block of group.blocks) {
      ids.add(block.id)
      for (const item of block.items ?? []) ids.add(item.id)
    }
  }
  for (const edge of bot.edges) ids.add(edge.id)
  for (const event of bot.events) ids.add(event.id)
  for (const variable of bot.variables) ids.add(variable.id)
  return ids
}
