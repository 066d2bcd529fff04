import type { Edge as FlowEdge, Node as FlowNode, NodeHandle, Position } from '@xyflow/react'
import type { Block, BotV6, Edge, Group } from '#shared/bot/types'

/*
 * The bot as React Flow sees it: nodes (start event, groups) and edges. Pure functions
 * (no React, no DOM) so the rules that keep a 300-group bot fast are unit tested
 * (tests/unit/bot/canvas_nodes.spec.ts).
 */

/**
 * Handle ids: the start event, a block, an item of a block; the group's target and each
 * block's target (an edge may lead into the middle of a group).
 */
export const EVENT_HANDLE = 'event'
export const TARGET_HANDLE = 'in'
export const blockHandleId = (blockId: string) => `block:${blockId}`
export const itemHandleId = (blockId: string, itemId: string) => `item:${blockId}:${itemId}`
/** An input block's "No reply" exit (its reply timeout). */
export const timeoutHandleId = (blockId: string) => `timeout:${blockId}`
export const blockTargetHandleId = (blockId: string) => `to:${blockId}`
const BLOCK_TARGET_PREFIX = 'to:'

/** The block a target handle stands for, or undefined for the group's own target. */
export function blockOfTargetHandle(handle: string | null | undefined) {
  return handle?.startsWith(BLOCK_TARGET_PREFIX)
    ? handle.slice(BLOCK_TARGET_PREFIX.length)
    : undefined
}

// Position's values, without importing React Flow's runtime into this module.
const LEFT = 'left' as Position
const RIGHT = 'right' as Position

type Placed = { id: string; graphCoordinates: { x: number; y: number }; blocks?: Block[] }
type NodeKind = 'botGroup' | 'start'

/*
 * Size hints for nodes not measured yet: with them React Flow knows which nodes are off
 * screen and does not mount them (onlyRenderVisibleElements), instead of mounting all of a
 * large bot's groups to measure them first. They follow group_node.tsx: a w-72 card, a
 * title row, blocks of about 38 px with 8 px between them.
 */
export const GROUP_WIDTH_HINT = 288
const GROUP_HEADER_HINT = 52
const BLOCK_HINT = 46
// Measured in Chromium: a group of 6 text blocks is 326 px high, its first handle at y 58.
export const groupHeightHint = (blocks: number) =>
  GROUP_HEADER_HINT - 2 + BLOCK_HINT * Math.max(1, blocks)

/*
 * React Flow mounts every node whose handles it has not measured, even off screen (its
 * "force initial render"): a 300-group bot then mounts all 2,000 blocks on open, only to
 * unmount them a frame later (6 to 10 s on the benchmark machine). Estimated handles, where
 * group_node.tsx draws them, mark a node as ready, so only what is on screen mounts, and
 * an edge from a node on screen to one off screen still has an end to draw to.
 * dropEstimatedHandles removes the estimate once a node is measured: React Flow then keeps
 * the measured handles (a node object with `handles` would reset them to the estimate).
 */
export function estimatedHandles(item: Placed, type: NodeKind): NodeHandle[] {
  if (type === 'start')
    return [{ id: EVENT_HANDLE, type: 'source', position: RIGHT, x: 170, y: 18 }]
  const handles: NodeHandle[] = [
    { id: TARGET_HANDLE, type: 'target', position: LEFT, x: -6, y: 16 },
  ]
  ;(item.blocks ?? []).forEach((block, index) => {
    const y = GROUP_HEADER_HINT + BLOCK_HINT * index + 6
    const source = { type: 'source' as const, position: RIGHT, x: GROUP_WIDTH_HINT - 2, y }
    for (const entry of block.items ?? [])
      handles.push({ ...source, id: itemHandleId(block.id, entry.id) })
    handles.push({ ...source, id: blockHandleId(block.id) })
    if (block.timeout) handles.push({ ...source, id: timeoutHandleId(block.id) })
    handles.push({ id: blockTargetHandleId(block.id), type: 'target', position: LEFT, x: 6, y })
  })
  return handles
}

/**
 * The nodes for the present bot. Node objects whose position did not change are kept
 * (React Flow skips them); a node being dragged keeps React Flow's position. With
 * `estimate` (large bots), new nodes carry estimated handles.
 */
export function reconcileNodes(previous: FlowNode[], bot: BotV6, estimate = false): FlowNode[] {
  const byId = new Map(previous.map((node) => [node.id, node]))
  const place = (item: Placed, type: NodeKind): FlowNode => {
    const { x, y } = item.graphCoordinates
    const node = byId.get(item.id)
    if (node && node.type === type) {
      if (node.dragging || (node.position.x === x && node.position.y === y)) return node
      return { ...node, position: { x, y } }
    }
    return {
      id: item.id,
      type,
      position: { x, y },
      data: { groupId: item.id },
      initialWidth: GROUP_WIDTH_HINT,
      initialHeight: type === 'start' ? 48 : groupHeightHint(item.blocks?.length ?? 0),
      ...(estimate ? { handles: estimatedHandles(item, type) } : {}),
    }
  }
  const next = [
    ...bot.events.map((event) => place(event, 'start')),
    ...bot.groups.map((group) => place(group, 'botGroup')),
  ]
  const same = next.length === previous.length && next.every((node, i) => node === previous[i])
  return same ? previous : next
}

/** Nodes just measured lose their estimated handles (see estimatedHandles); others are kept. */
export function dropEstimatedHandles(nodes: FlowNode[], measured: ReadonlySet<string>) {
  if (measured.size === 0) return nodes
  return nodes.map((node) => {
    if (!measured.has(node.id) || !node.handles) return node
    const rest = { ...node }
    delete rest.handles
    return rest
  })
}

/** React Flow edges: from an event, a block or an item of a block, to a group. */
export function toFlowEdges(
  groups: Group[],
  edges: Edge[],
  selected: Record<string, true>
): FlowEdge[] {
  const groupOfBlock = new Map<string, string>()
  for (const group of groups) for (const block of group.blocks) groupOfBlock.set(block.id, group.id)
  // An edge into a block ends on that block, if it is still in the edge's group.
  const targetHandle = (to: Edge['to']) =>
    to.blockId !== undefined && groupOfBlock.get(to.blockId) === to.groupId
      ? blockTargetHandleId(to.blockId)
      : TARGET_HANDLE
  return edges.flatMap((edge): FlowEdge[] => {
    const from = edge.from
    let source: string | undefined
    let sourceHandle: string
    if ('eventId' in from) {
      source = from.eventId
      sourceHandle = EVENT_HANDLE
    } else {
      source = groupOfBlock.get(from.blockId)
      sourceHandle =
        from.timeout === true
          ? timeoutHandleId(from.blockId)
          : from.itemId === undefined
            ? blockHandleId(from.blockId)
            : itemHandleId(from.blockId, from.itemId)
    }
    if (!source) return []
    return [
      {
        id: edge.id,
        type: 'deletable',
        source,
        sourceHandle,
        target: edge.to.groupId,
        targetHandle: targetHandle(edge.to),
        selected: !!selected[edge.id],
      },
    ]
  })
}
