/**
 * The editing rules of the bot graph as pure
 * functions: each takes a bot and returns a new one, never touching its input. The
 * editor's zustand store calls them and pushes the result on its undo history; the
 * server may replay them (copilot, API). Conventions:
 * - an operation naming something that does not exist returns the very same bot, so
 *   `next === bot` means "nothing happened" (no re-render, no history entry);
 * - groups, blocks and items that did not change keep their identity, so memoised
 *   nodes that select their own data by id do not re-render;
 * - operations that create something return `{ bot, <new id> }`, the others the bot;
 * - edges and outgoingEdgeIds are reconciled after every change (pruneEdges).
 */
import {
  allIds,
  isEventSource,
  locateBlock,
  pruneEdges,
  round2,
  sourceKey,
  withoutOutgoingEdge,
} from './graph.js'
import { createId } from './new_bot.js'
import type {
  Block,
  BlockOptions,
  BotV6,
  Coordinates,
  Edge,
  EdgeSource,
  EdgeTarget,
  Group,
  Item,
} from './types.js'
import { TIMEOUT_MAX_SECONDS, TIMEOUT_MIN_SECONDS } from './types.js'

export { sanitizeVariableName } from './variable_names.js'

/** Where a duplicate or a paste without a position lands, relative to its original. */
export const DUPLICATE_OFFSET: Readonly<Coordinates> = { x: 200, y: 100 }

/** The most entries the variable picker suggests. */
export const MAX_VARIABLE_SUGGESTIONS = 50

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

function replaceGroup(bot: BotV6, groupId: string, fn: (group: Group) => Group): BotV6 {
  let changed = false
  const groups = bot.groups.map((group) => {
    if (group.id !== groupId) return group
    const next = fn(group)
    if (next !== group) changed = true
    return next
  })
  return changed ? { ...bot, groups } : bot
}

function replaceBlock(bot: BotV6, blockId: string, fn: (block: Block) => Block): BotV6 {
  const location = locateBlock(bot, blockId)
  if (!location) return bot
  const next = fn(location.block)
  if (next === location.block) return bot
  return replaceGroup(bot, location.group.id, (group) => ({
    ...group,
    blocks: group.blocks.map((block) => (block.id === blockId ? next : block)),
  }))
}

/** A group left empty is removed, so the canvas holds no empty cards; edges into it go too. */
export function removeEmptyGroups(bot: BotV6): BotV6 {
  if (!isEmptyGroupPresent(bot)) return bot
  return pruneEdges({ ...bot, groups: bot.groups.filter((group) => group.blocks.length > 0) })
}

/** True while some group has no block (mid-drag states): undo skips those. */
export function isEmptyGroupPresent(bot: BotV6): boolean {
  return bot.groups.some((group) => group.blocks.length === 0)
}

const GROUP_TITLE = /^Group #(\d+)$/

/**
 * 'Group #N' with N one more than the highest number in use (1 for the first group):
 * numbers are never reused while a higher one exists, so titles read in creation order.
 */
export function nextGroupTitle(bot: BotV6): string {
  let highest = 0
  for (const group of bot.groups) {
    const match = GROUP_TITLE.exec(group.title)
    if (match) highest = Math.max(highest, Number(match[1]))
  }
  return `Group #${highest + 1}`
}

/** '<title> copy', then '<title> copy 2', '<title> copy 3'... the first one not taken. */
export function copyTitle(title: string, taken: Iterable<string>): string {
  const titles = new Set(taken)
  const base = `${title} copy`
  let candidate = base
  for (let n = 2; titles.has(candidate); n++) candidate = `${base} ${n}`
  return candidate
}

function roundCoordinates(coordinates: Coordinates): Coordinates {
  return { x: round2(coordinates.x), y: round2(coordinates.y) }
}

export function offset(coordinates: Coordinates, by: Coordinates): Coordinates {
  return roundCoordinates({ x: coordinates.x + by.x, y: coordinates.y + by.y })
}

/** A block as dropped from the sidebar: fresh ids for it and its items. */
export function newBlock(
  type: string,
  init: {
    id?: string
    options?: BlockOptions
    content?: Record<string, unknown>
    items?: Partial<Item>[]
  } = {}
): Block {
  const id = init.id ?? createId()
  const block: Block = { id, type }
  if (init.options !== undefined) block.options = structuredClone(init.options)
  if (init.content !== undefined) block.content = structuredClone(init.content)
  if (init.items !== undefined) {
    block.items = init.items.map((item) => ({
      ...structuredClone(item),
      id: item.id ?? createId(),
      blockId: id,
    }))
  }
  return block
}

/** A deep copy with new ids for the block and its items, without outgoing edges. */
function cloneWithNewIds(block: Block): Block {
  const id = createId()
  const copy = withoutOutgoingEdge({ ...structuredClone(block), id })
  if (copy.timeout) copy.timeout = withoutOutgoingEdge(copy.timeout)
  if (copy.items) {
    copy.items = copy.items.map((item) =>
      withoutOutgoingEdge({
        ...item,
        id: createId(),
        ...('blockId' in item ? { blockId: id } : {}),
      })
    )
  }
  return copy
}

function blockIds(block: Block): string[] {
  return [block.id, ...(block.items ?? []).map((item) => item.id)]
}

/**
 * Puts a block at `index` of a group. When it lands at the end, after an existing block,
 * that block loses its outgoing edge: the flow now goes on to the new block. The
 * placed block keeps its own outgoing edge only when it ends last: an outgoing edge in
 * the middle of a group would make the engine skip the blocks after it. Item edges stay.
 */
function placeBlock(bot: BotV6, groupId: string, index: number, block: Block): BotV6 {
  const cut: string[] = []
  const next = replaceGroup(bot, groupId, (group) => {
    const at = Math.max(0, Math.min(Math.trunc(index), group.blocks.length))
    const isLast = at === group.blocks.length
    const blocks = [...group.blocks]
    if (isLast && at > 0) {
      cut.push(blocks[at - 1].id)
      blocks[at - 1] = withoutOutgoingEdge(blocks[at - 1])
    }
    if (!isLast) cut.push(block.id)
    blocks.splice(at, 0, isLast ? block : withoutOutgoingEdge(block))
    return { ...group, blocks }
  })
  // The cut edges go too, or pruneEdges would hand them back to their source.
  const edges = next.edges.filter(
    (edge) =>
      isEventSource(edge.from) ||
      edge.from.itemId !== undefined ||
      edge.from.timeout === true ||
      !cut.includes(edge.from.blockId)
  )
  return pruneEdges(edges.length === next.edges.length ? next : { ...next, edges })
}

// ---------------------------------------------------------------------------
// Edges
// ---------------------------------------------------------------------------

function sourceExists(bot: BotV6, from: EdgeSource): boolean {
  if (isEventSource(from)) return bot.events.some((event) => event.id === from.eventId)
  const location = locateBlock(bot, from.blockId)
  if (!location) return false
  if (from.timeout === true) return !!location.block.timeout
  return from.itemId === undefined || !!location.block.items?.some((i) => i.id === from.itemId)
}

function targetExists(bot: BotV6, to: EdgeTarget): boolean {
  const group = bot.groups.find((candidate) => candidate.id === to.groupId)
  if (!group) return false
  return to.blockId === undefined || group.blocks.some((block) => block.id === to.blockId)
}

function setOutgoingEdge(bot: BotV6, from: EdgeSource, edgeId: string): BotV6 {
  if (isEventSource(from)) {
    return {
      ...bot,
      events: bot.events.map((event) =>
        event.id === from.eventId ? { ...event, outgoingEdgeId: edgeId } : event
      ),
    }
  }
  return replaceBlock(bot, from.blockId, (block) => {
    if (from.timeout === true && block.timeout)
      return { ...block, timeout: { ...block.timeout, outgoingEdgeId: edgeId } }
    if (from.itemId === undefined) return { ...block, outgoingEdgeId: edgeId }
    return {
      ...block,
      items: block.items?.map((item) =>
        item.id === from.itemId ? { ...item, outgoingEdgeId: edgeId } : item
      ),
    }
  })
}

/**
 * Joins a source (the start event, a block, an item) to a group or one of its blocks.
 * The source's previous edge, if any, is replaced: a source has one way out.
 */
export function connect(
  bot: BotV6,
  from: EdgeSource,
  to: EdgeTarget,
  edgeId: string = createId()
): BotV6 {
  if (!sourceExists(bot, from) || !targetExists(bot, to)) return bot
  const cleanFrom: EdgeSource = isEventSource(from)
    ? { eventId: from.eventId }
    : from.timeout === true
      ? { blockId: from.blockId, timeout: true }
      : from.itemId === undefined
        ? { blockId: from.blockId }
        : { blockId: from.blockId, itemId: from.itemId }
  const cleanTo: EdgeTarget =
    to.blockId === undefined
      ? { groupId: to.groupId }
      : { groupId: to.groupId, blockId: to.blockId }
  const key = sourceKey(cleanFrom)
  const edges = bot.edges.filter((edge) => sourceKey(edge.from) !== key)
  const edge: Edge = { id: edgeId, from: cleanFrom, to: cleanTo }
  return pruneEdges(setOutgoingEdge({ ...bot, edges: [...edges, edge] }, cleanFrom, edgeId))
}

export function deleteEdge(bot: BotV6, edgeId: string): BotV6 {
  if (!bot.edges.some((edge) => edge.id === edgeId)) return bot
  return pruneEdges({ ...bot, edges: bot.edges.filter((edge) => edge.id !== edgeId) })
}

// ---------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------

/**
 * A new group at `coordinates` titled 'Group #N', holding `block` when given (the usual
 * case: a block dropped on the canvas). Without a block the group is empty, as during a
 * drag; removeEmptyGroups clears it if nothing lands in it.
 */
export function addGroup(
  bot: BotV6,
  input: { coordinates: Coordinates; block?: Block; title?: string; id?: string }
): { bot: BotV6; groupId?: string } {
  const used = allIds(bot)
  const groupId = input.id ?? createId()
  const newIds = [groupId, ...(input.block ? blockIds(input.block) : [])]
  if (newIds.some((id) => used.has(id)) || new Set(newIds).size !== newIds.length) return { bot }
  const group: Group = {
    id: groupId,
    title: input.title ?? nextGroupTitle(bot),
    graphCoordinates: roundCoordinates(input.coordinates),
    blocks: input.block ? [withoutEdges(input.block)] : [],
  }
  return { bot: { ...bot, groups: [...bot.groups, group] }, groupId }
}

/** A block that is new to the bot has no edges yet, whatever it carried. */
function withoutEdges(block: Block): Block {
  let clean = withoutOutgoingEdge(block)
  if (clean.timeout?.outgoingEdgeId !== undefined)
    clean = { ...clean, timeout: withoutOutgoingEdge(clean.timeout) }
  if (!clean.items?.some((item) => item.outgoingEdgeId !== undefined)) return clean
  return { ...clean, items: clean.items.map((item) => withoutOutgoingEdge(item)) }
}

export function deleteGroup(bot: BotV6, groupId: string): BotV6 {
  if (!bot.groups.some((group) => group.id === groupId)) return bot
  return pruneEdges({ ...bot, groups: bot.groups.filter((group) => group.id !== groupId) })
}

/** Moves a group; coordinates are rounded to 2 decimals, as they are stored. */
export function moveGroup(bot: BotV6, groupId: string, coordinates: Coordinates): BotV6 {
  const rounded = roundCoordinates(coordinates)
  return replaceGroup(bot, groupId, (group) =>
    group.graphCoordinates.x === rounded.x && group.graphCoordinates.y === rounded.y
      ? group
      : { ...group, graphCoordinates: { ...group.graphCoordinates, ...rounded } }
  )
}

/** Moves an event (the start event) the same way. */
export function moveEvent(bot: BotV6, eventId: string, coordinates: Coordinates): BotV6 {
  const rounded = roundCoordinates(coordinates)
  let changed = false
  const events = bot.events.map((event) => {
    if (event.id !== eventId) return event
    if (event.graphCoordinates.x === rounded.x && event.graphCoordinates.y === rounded.y) {
      return event
    }
    changed = true
    return { ...event, graphCoordinates: { ...event.graphCoordinates, ...rounded } }
  })
  return changed ? { ...bot, events } : bot
}

/** A blank title is ignored (the group keeps its previous one), like variable names. */
export function renameGroup(bot: BotV6, groupId: string, title: string): BotV6 {
  if (title.trim() === '') return bot
  return replaceGroup(bot, groupId, (group) =>
    group.title === title ? group : { ...group, title }
  )
}

/**
 * A copy of a group beside it (x+200, y+100): new ids for the group, its blocks and
 * items, no outgoing edges, and a unique title '<title> copy' ('<title> copy 2', ...).
 */
export function duplicateGroup(bot: BotV6, groupId: string): { bot: BotV6; groupId?: string } {
  const original = bot.groups.find((group) => group.id === groupId)
  if (!original) return { bot }
  const copy: Group = {
    ...structuredClone(original),
    id: createId(),
    title: copyTitle(
      original.title,
      bot.groups.map((group) => group.title)
    ),
    graphCoordinates: offset(original.graphCoordinates, DUPLICATE_OFFSET),
    blocks: original.blocks.map(cloneWithNewIds),
  }
  const index = bot.groups.indexOf(original)
  const groups = [...bot.groups.slice(0, index + 1), copy, ...bot.groups.slice(index + 1)]
  return { bot: { ...bot, groups }, groupId: copy.id }
}

// ---------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------

/**
 * Inserts a new block (see newBlock) at `index` of a group (clamped to its ends).
 * Inserted after the last block, that block's outgoing edge is removed (the flow goes through the new block). Refused
 * (same bot back) when the group is missing or an id of the block is already used.
 */
export function insertBlock(bot: BotV6, groupId: string, index: number, block: Block): BotV6 {
  if (!bot.groups.some((group) => group.id === groupId)) return bot
  const used = allIds(bot)
  const ids = blockIds(block)
  if (ids.some((id) => used.has(id)) || new Set(ids).size !== ids.length) return bot
  const clean = withoutEdges(block)
  return placeBlock(bot, groupId, index, clean)
}

/** Edges aimed at a moved block follow it to its new group. */
function retargetEdges(edges: Edge[], blockId: string, groupId: string): Edge[] {
  return edges.map((edge) =>
    edge.to.blockId === blockId && edge.to.groupId !== groupId
      ? { ...edge, to: { ...edge.to, groupId } }
      : edge
  )
}

function takeBlockOut(bot: BotV6, blockId: string) {
  const location = locateBlock(bot, blockId)
  if (!location) return undefined
  const groups = bot.groups.map((group) =>
    group.id === location.group.id
      ? { ...group, blocks: group.blocks.filter((block) => block.id !== blockId) }
      : group
  )
  return { location, bot: { ...bot, groups } }
}

/**
 * Moves a block to `toIndex` of a group (the same or another), the index counted once
 * the block has been taken out. The end-of-group rule of insertBlock applies; the group
 * it leaves is removed when left empty; edges aimed at the block follow it.
 */
export function moveBlock(bot: BotV6, blockId: string, toGroupId: string, toIndex: number): BotV6 {
  if (!bot.groups.some((group) => group.id === toGroupId)) return bot
  const taken = takeBlockOut(bot, blockId)
  if (!taken) return bot
  const { location } = taken
  const target = taken.bot.groups.find((group) => group.id === toGroupId)!
  const at = Math.max(0, Math.min(Math.trunc(toIndex), target.blocks.length))
  if (location.group.id === toGroupId && at === location.blockIndex) return bot
  // Retarget before placing: placing reconciles edges, which would drop them otherwise.
  const retargeted = { ...taken.bot, edges: retargetEdges(taken.bot.edges, blockId, toGroupId) }
  return removeEmptyGroups(placeBlock(retargeted, toGroupId, at, location.block))
}

/**
 * Drags a block out onto the canvas: a new group 'Group #N' at `coordinates` holds it,
 * keeping its edges (it is the last block there). The group it left goes if empty.
 */
export function moveBlockToNewGroup(
  bot: BotV6,
  blockId: string,
  coordinates: Coordinates
): { bot: BotV6; groupId?: string } {
  const taken = takeBlockOut(bot, blockId)
  if (!taken) return { bot }
  const group: Group = {
    id: createId(),
    title: nextGroupTitle(bot),
    graphCoordinates: roundCoordinates(coordinates),
    blocks: [taken.location.block],
  }
  let next: BotV6 = { ...taken.bot, groups: [...taken.bot.groups, group] }
  next = { ...next, edges: retargetEdges(next.edges, blockId, group.id) }
  return { bot: removeEmptyGroups(pruneEdges(next)), groupId: group.id }
}

/** Removes a block and every edge from or to it; its group goes when left empty. */
export function deleteBlock(bot: BotV6, blockId: string): BotV6 {
  const taken = takeBlockOut(bot, blockId)
  if (!taken) return bot
  return removeEmptyGroups(pruneEdges(taken.bot))
}

/**
 * A copy of a block in a new group 'Group #N' offset by x+200, y+100 from the block's
 * group: new ids for the group, block and items, no outgoing edges.
 */
export function duplicateBlock(
  bot: BotV6,
  blockId: string
): { bot: BotV6; groupId?: string; blockId?: string } {
  const location = locateBlock(bot, blockId)
  if (!location) return { bot }
  const copy = cloneWithNewIds(location.block)
  const group: Group = {
    id: createId(),
    title: nextGroupTitle(bot),
    graphCoordinates: offset(location.group.graphCoordinates, DUPLICATE_OFFSET),
    blocks: [copy],
  }
  return { bot: { ...bot, groups: [...bot.groups, group] }, groupId: group.id, blockId: copy.id }
}

/**
 * Merges `patch` into the block's options; a function receives the current options and
 * returns the new ones whole.
 */
export function updateBlockOptions(
  bot: BotV6,
  blockId: string,
  patch: BlockOptions | ((options: BlockOptions) => BlockOptions)
): BotV6 {
  return replaceBlock(bot, blockId, (block) => ({
    ...block,
    options:
      typeof patch === 'function' ? patch(block.options ?? {}) : { ...block.options, ...patch },
  }))
}

/**
 * Sets an input block's reply timeout (seconds, clamped to the bounds), or removes it
 * with null: its "No reply" edge goes with it.
 */
export function setBlockTimeout(bot: BotV6, blockId: string, seconds: number | null): BotV6 {
  const next = replaceBlock(bot, blockId, (block) => {
    if (seconds === null || !Number.isFinite(seconds)) {
      if (!block.timeout) return block
      const rest = { ...block }
      delete rest.timeout
      return rest
    }
    const clamped = Math.min(
      TIMEOUT_MAX_SECONDS,
      Math.max(TIMEOUT_MIN_SECONDS, Math.round(seconds))
    )
    if (block.timeout?.seconds === clamped) return block
    return { ...block, timeout: { ...block.timeout, seconds: clamped } }
  })
  return next === bot ? bot : pruneEdges(next)
}

/** The same for bubbles, which keep their settings in `content`. */
export function updateBlockContent(
  bot: BotV6,
  blockId: string,
  patch: Record<string, unknown> | ((content: Record<string, unknown>) => Record<string, unknown>)
): BotV6 {
  return replaceBlock(bot, blockId, (block) => ({
    ...block,
    content:
      typeof patch === 'function' ? patch(block.content ?? {}) : { ...block.content, ...patch },
  }))
}

// ---------------------------------------------------------------------------
// Items
// ---------------------------------------------------------------------------

/**
 * Adds an item (a button, a condition branch...) at `index` (default: last) with a new
 * id. `maxItems` comes from the plugin's items declaration; at the limit, nothing is added.
 */
export function addItem(
  bot: BotV6,
  blockId: string,
  item: Partial<Item> = {},
  options: { index?: number; maxItems?: number } = {}
): { bot: BotV6; itemId?: string } {
  const location = locateBlock(bot, blockId)
  if (!location) return { bot }
  const items = location.block.items ?? []
  if (options.maxItems !== undefined && items.length >= options.maxItems) return { bot }
  const itemId = item.id && !allIds(bot).has(item.id) ? item.id : createId()
  const created = withoutOutgoingEdge({ ...structuredClone(item), id: itemId, blockId } as Item)
  const at = Math.max(0, Math.min(Math.trunc(options.index ?? items.length), items.length))
  const next = replaceBlock(bot, blockId, (block) => ({
    ...block,
    items: [...items.slice(0, at), created, ...items.slice(at)],
  }))
  return { bot: next, itemId }
}

export function updateItem(
  bot: BotV6,
  blockId: string,
  itemId: string,
  patch: Partial<Omit<Item, 'id' | 'blockId' | 'outgoingEdgeId'>>
): BotV6 {
  return replaceBlock(bot, blockId, (block) => {
    if (!block.items?.some((item) => item.id === itemId)) return block
    return {
      ...block,
      items: block.items.map((item) => (item.id === itemId ? { ...item, ...patch } : item)),
    }
  })
}

export type DeleteItemResult =
  { bot: BotV6; deleted: true } | { bot: BotV6; deleted: false; reason: 'not-found' | 'last-item' }

/**
 * Removes an item and its edge. The last item of a block cannot be deleted (a choice block needs a choice);
 * `minItems` (the plugin's items.min, e.g. 2 for an AB test) raises that floor.
 */
export function deleteItem(
  bot: BotV6,
  blockId: string,
  itemId: string,
  options: { minItems?: number } = {}
): DeleteItemResult {
  const block = locateBlock(bot, blockId)?.block
  const items = block?.items ?? []
  if (!items.some((item) => item.id === itemId)) return { bot, deleted: false, reason: 'not-found' }
  if (items.length <= Math.max(1, options.minItems ?? 1)) {
    return { bot, deleted: false, reason: 'last-item' }
  }
  const next = replaceBlock(bot, blockId, (current) => ({
    ...current,
    items: items.filter((item) => item.id !== itemId),
  }))
  return { bot: pruneEdges(next), deleted: true }
}

// Copy and paste (clipboard.ts) and variables (variable_editing.ts) follow the same rules.
export * from './clipboard.js'
export * from './variable_editing.js'
