/**
 * What changed between two versions of a bot or a workflow (docs/workflows.md "History"):
 * the groups, blocks, events, nodes, edges and variables added, removed or changed, with
 * the fields that changed. Pure and shared: the editors highlight the result on the canvas
 * and list it beside it.
 */
import type { BotSnapshot } from '../bot/types.js'
import type { WorkflowSnapshot } from '../workflow/types.js'

export type ChangeKind = 'added' | 'removed' | 'changed'
export type ItemType = 'group' | 'block' | 'event' | 'node' | 'edge' | 'variable'

export interface ItemChange {
  kind: ChangeKind
  type: ItemType
  id: string
  /** A name to show: a title, a variable's name, a node type; the id when there is none. */
  label: string
  /** Changed fields (one level into options and content: 'options.code'); empty unless changed. */
  fields: string[]
  /** Each changed field's value in the older and the newer version, by its name in `fields`. */
  values?: Record<string, { before: unknown; after: unknown }>
  /** Blocks: the group they are in (in the newer version, else the older one). */
  groupId?: string
  /** Nodes and blocks: their plugin type, for an editor to name them. */
  pluginType?: string
}

export interface VersionDiff {
  changes: ItemChange[]
  /** Each changed item's kind by id, for the canvas. */
  byId: Record<string, ChangeKind>
  /** Top-level fields outside the graph that changed ('name', 'settings', 'theme'...). */
  fields: string[]
}

/** JSON equality that ignores key order and undefined values. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((entry, index) => sameJson(entry, b[index]))
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const defined = (o: object) =>
      Object.entries(o).filter(([, value]) => value !== undefined) as [string, unknown][]
    const left = defined(a)
    const right = new Map(defined(b))
    return (
      left.length === right.size && left.every(([key, value]) => sameJson(value, right.get(key)))
    )
  }
  return false
}

/** Fields looked into one level deeper: their keys are what a builder edits. */
const NESTED = new Set(['options', 'content'])

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

/** Fields of two versions of one item that differ, `ignore` left out. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  ignore: readonly string[] = []
): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  const fields: string[] = []
  for (const key of keys.sort()) {
    if (ignore.includes(key) || sameJson(before[key], after[key])) continue
    const left = before[key]
    const right = after[key]
    if (NESTED.has(key) && (isObject(left) || isObject(right))) {
      const inner = changedFields(isObject(left) ? left : {}, isObject(right) ? right : {})
      fields.push(...inner.map((name) => `${key}.${name}`))
    } else {
      fields.push(key)
    }
  }
  return fields
}

interface Keyed {
  id: string
}

/** The value at a `changedFields` name ('title', 'options.code') of an item. */
function valueAt(item: object, field: string): unknown {
  let value: unknown = item
  for (const key of field.split('.')) {
    value = isObject(value) ? value[key] : undefined
  }
  return value
}

function compare<T extends Keyed>(
  type: ItemType,
  before: readonly T[],
  after: readonly T[],
  options: {
    label: (item: T) => string
    pluginType?: (item: T) => string | undefined
    ignore?: readonly string[]
    groupOf?: (item: T, side: 'before' | 'after') => string | undefined
  },
  out: ItemChange[]
) {
  const old = new Map(before.map((item) => [item.id, item]))
  const next = new Map(after.map((item) => [item.id, item]))
  const group = (item: T, side: 'before' | 'after') => ({
    ...(options.groupOf ? { groupId: options.groupOf(item, side) } : {}),
    ...(options.pluginType ? { pluginType: options.pluginType(item) } : {}),
  })
  for (const item of after) {
    const previous = old.get(item.id)
    if (!previous) {
      out.push({
        kind: 'added',
        type,
        id: item.id,
        label: options.label(item),
        fields: [],
        ...group(item, 'after'),
      })
      continue
    }
    const fields = changedFields(
      previous as unknown as Record<string, unknown>,
      item as unknown as Record<string, unknown>,
      options.ignore
    )
    if (fields.length > 0) {
      const values: Record<string, { before: unknown; after: unknown }> = {}
      for (const field of fields) {
        values[field] = { before: valueAt(previous, field), after: valueAt(item, field) }
      }
      out.push({
        kind: 'changed',
        type,
        id: item.id,
        label: options.label(item),
        fields,
        values,
        ...group(item, 'after'),
      })
    }
  }
  for (const item of before) {
    if (next.has(item.id)) continue
    out.push({
      kind: 'removed',
      type,
      id: item.id,
      label: options.label(item),
      fields: [],
      ...group(item, 'before'),
    })
  }
}

function finish(changes: ItemChange[], fields: string[]): VersionDiff {
  const byId: Record<string, ChangeKind> = {}
  for (const change of changes) byId[change.id] = change.kind
  return { changes, byId, fields }
}

function topFields<T extends object>(before: T, after: T, keys: readonly (keyof T)[]) {
  return keys.filter((key) => !sameJson(before[key], after[key])).map(String)
}

/** What changed from workflow version `before` to `after`. */
export function diffWorkflows(
  before: Pick<WorkflowSnapshot, 'blocks' | 'edges' | 'variables'> & Partial<WorkflowSnapshot>,
  after: Pick<WorkflowSnapshot, 'blocks' | 'edges' | 'variables'> & Partial<WorkflowSnapshot>
): VersionDiff {
  const changes: ItemChange[] = []
  compare(
    'node',
    before.blocks ?? [],
    after.blocks ?? [],
    { label: (node) => node.title || node.type, pluginType: (node) => node.type },
    changes
  )
  compare(
    'edge',
    before.edges ?? [],
    after.edges ?? [],
    { label: (edge) => `${edge.from.blockId} → ${edge.to.blockId}` },
    changes
  )
  compare(
    'variable',
    before.variables ?? [],
    after.variables ?? [],
    { label: (variable) => variable.name },
    changes
  )
  return finish(
    changes,
    topFields(before, after, ['name', 'description', 'icon', 'settings'] as const)
  )
}

/**
 * What changed from bot version `before` to `after`. A block moved to another group is
 * changed ('groupId'); a group's blocks are compared one by one, not as the group's field.
 */
export function diffBots(
  before: Pick<BotSnapshot, 'groups' | 'events' | 'edges' | 'variables'> & Partial<BotSnapshot>,
  after: Pick<BotSnapshot, 'groups' | 'events' | 'edges' | 'variables'> & Partial<BotSnapshot>
): VersionDiff {
  const changes: ItemChange[] = []
  compare(
    'group',
    before.groups ?? [],
    after.groups ?? [],
    { label: (group) => group.title || group.id, ignore: ['blocks'] },
    changes
  )
  type PlacedBlock = Keyed & Record<string, unknown> & { groupId: string }
  const blocksOf = (groups: BotSnapshot['groups'] | undefined): PlacedBlock[] =>
    (groups ?? []).flatMap((group) =>
      group.blocks.map((block) => ({ ...(block as unknown as Keyed), groupId: group.id }))
    ) as PlacedBlock[]
  compare(
    'block',
    blocksOf(before.groups),
    blocksOf(after.groups),
    {
      label: (block) => String(block.type ?? block.id),
      pluginType: (block) => (typeof block.type === 'string' ? block.type : undefined),
      groupOf: (block) => block.groupId,
    },
    changes
  )
  compare(
    'event',
    before.events ?? [],
    after.events ?? [],
    { label: (event) => event.type },
    changes
  )
  compare(
    'edge',
    before.edges ?? [],
    after.edges ?? [],
    {
      label: (edge) => {
        const from = edge.from as { groupId?: string; blockId?: string; eventId?: string }
        return `${from.blockId ?? from.eventId ?? from.groupId ?? '?'} → ${edge.to.groupId}`
      },
    },
    changes
  )
  compare(
    'variable',
    before.variables ?? [],
    after.variables ?? [],
    { label: (variable) => variable.name },
    changes
  )
  return finish(changes, topFields(before, after, ['name', 'theme', 'settings'] as const))
}

/**
 * The items of both versions together, for a canvas that shows removed items too: the
 * newer version's items, then those only the older one had, in their older order.
 */
export function unionById<T extends Keyed>(before: readonly T[], after: readonly T[]): T[] {
  const seen = new Set(after.map((item) => item.id))
  return [...after, ...before.filter((item) => !seen.has(item.id))]
}
