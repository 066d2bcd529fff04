import { isEventSource, mapStrings, pruneEdges } from './graph.js'
import { createId } from './new_bot.js'
import type {
  Block,
  BlockOptions,
  BotV6,
  Coordinates,
  Edge,
  Group,
  Item,
  Variable,
} from './types.js'
import { DUPLICATE_OFFSET, copyTitle, offset } from './editing.js'

/**
 * Copy and paste of groups (editing.ts's rules): a self-contained clipboard, pasted with new
 * ids, its variables matched by name or created.
 */

/** What the editor keeps on its clipboard: self-contained, plain JSON. */
export interface BotClipboard {
  groups: Group[]
  /** Edges between the copied groups only. */
  edges: Edge[]
  /** Variables the copied blocks use (by id, or by {{name}} in their texts). */
  variables: Variable[]
}

/** Calls visit on every string inside the blocks (options, content, items). */
function visitStrings(value: unknown, visit: (text: string) => void) {
  mapStrings(value, (text) => {
    visit(text)
    return text
  })
}

const VARIABLE_REFERENCE = /{{([^{}]+)}}/g

export function copySelection(bot: BotV6, groupIds: string[]): BotClipboard {
  const selected = new Set(groupIds)
  const groups = bot.groups.filter((group) => selected.has(group.id))
  const blockIdsInside = new Set(groups.flatMap((group) => group.blocks.map((block) => block.id)))
  const edges = bot.edges.filter(
    (edge) =>
      !isEventSource(edge.from) &&
      blockIdsInside.has(edge.from.blockId) &&
      selected.has(edge.to.groupId)
  )
  const byId = new Map(bot.variables.map((variable) => [variable.id, variable]))
  const byName = new Map(bot.variables.map((variable) => [variable.name, variable]))
  const used = new Map<string, Variable>()
  visitStrings(groups, (text) => {
    const variable = byId.get(text)
    if (variable) used.set(variable.id, variable)
    for (const match of text.matchAll(VARIABLE_REFERENCE)) {
      const named = byName.get(match[1])
      if (named) used.set(named.id, named)
    }
  })
  return structuredClone({ groups, edges, variables: [...used.values()] })
}

/**
 * Pastes a clipboard: new ids for groups, blocks, items and edges; edges between pasted
 * groups kept (remapped), edges to anything else dropped. Each clipboard variable is
 * matched by name: an existing variable of the same name is reused, otherwise it is
 * created (with a new id); references inside the pasted blocks are rewritten to match.
 * With `at`, the selection's top-left corner lands there; without, it is offset by
 * x+200, y+100 from where it was copied. Titles already in use get the ' copy' suffix.
 */
export function pasteSelection(
  bot: BotV6,
  clipboard: BotClipboard,
  at?: Coordinates
): { bot: BotV6; groupIds: string[] } {
  if (clipboard.groups.length === 0) return { bot, groupIds: [] }
  const ids = new Map<string, string>()
  const remap = (id: string) => {
    if (!ids.has(id)) ids.set(id, createId())
    return ids.get(id)!
  }

  const variables = [...bot.variables]
  const variableIds = new Map<string, string>()
  for (const variable of clipboard.variables) {
    const existing = variables.find((candidate) => candidate.name === variable.name)
    if (existing) {
      variableIds.set(variable.id, existing.id)
    } else {
      const created = { ...structuredClone(variable), id: `v${createId()}` }
      variables.push(created)
      variableIds.set(variable.id, created.id)
    }
  }
  const rewriteVariables = (value: unknown) =>
    mapStrings(value, (text) => variableIds.get(text) ?? text)

  const edgeIds = new Set(clipboard.edges.map((edge) => edge.id))
  const keepEdge = (edgeId?: string) =>
    edgeId !== undefined && edgeIds.has(edgeId) ? { outgoingEdgeId: remap(edgeId) } : {}

  const minX = Math.min(...clipboard.groups.map((group) => group.graphCoordinates.x))
  const minY = Math.min(...clipboard.groups.map((group) => group.graphCoordinates.y))
  const shift = at ? { x: at.x - minX, y: at.y - minY } : DUPLICATE_OFFSET
  const titles = new Set(bot.groups.map((group) => group.title))

  const groups = clipboard.groups.map((group): Group => {
    const title = titles.has(group.title) ? copyTitle(group.title, titles) : group.title
    titles.add(title)
    return {
      ...structuredClone(group),
      id: remap(group.id),
      title,
      graphCoordinates: offset(group.graphCoordinates, shift),
      blocks: group.blocks.map((block): Block => {
        const { id, outgoingEdgeId, items, options, content, timeout, ...rest } =
          structuredClone(block)
        const pasted: Block = {
          ...(rewriteVariables(rest) as Omit<Block, 'id'>),
          id: remap(id),
          ...keepEdge(outgoingEdgeId),
        }
        if (timeout)
          pasted.timeout = { seconds: timeout.seconds, ...keepEdge(timeout.outgoingEdgeId) }
        if (options !== undefined) pasted.options = rewriteVariables(options) as BlockOptions
        if (content !== undefined) pasted.content = rewriteVariables(content) as Block['content']
        if (items !== undefined) {
          pasted.items = items.map((item): Item => {
            const { id: itemId, outgoingEdgeId: itemEdge, ...fields } = item
            // The pasted item belongs to the pasted block.
            delete fields.blockId
            return {
              ...(rewriteVariables(fields) as Omit<Item, 'id'>),
              id: remap(itemId),
              blockId: pasted.id,
              ...keepEdge(itemEdge),
            }
          })
        }
        return pasted
      }),
    }
  })

  const edges = clipboard.edges.map((edge): Edge => {
    const from = edge.from as { blockId: string; itemId?: string; timeout?: true }
    return {
      ...structuredClone(edge),
      id: remap(edge.id),
      from: {
        blockId: remap(from.blockId),
        ...(from.itemId !== undefined ? { itemId: remap(from.itemId) } : {}),
        ...(from.timeout === true ? { timeout: true as const } : {}),
      },
      to: {
        groupId: remap(edge.to.groupId),
        ...(edge.to.blockId !== undefined ? { blockId: remap(edge.to.blockId) } : {}),
      },
    }
  })

  const next = pruneEdges({
    ...bot,
    groups: [...bot.groups, ...groups],
    edges: [...bot.edges, ...edges],
    variables,
  })
  return { bot: next, groupIds: groups.map((group) => group.id) }
}
