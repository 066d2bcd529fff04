/**
 * Reads bot content of versions 3 to 6 and returns it as version 6. Runs on every read
 * of stored content and on import, in the server and in the browser.
 *
 * What it changes (plus what v6 requires):
 * - a missing version is version 3; groups without blocks get an empty list;
 * - before v6 the flow began at a group whose first block was of type 'start'. That
 *   block becomes the start event (same id, the group's coordinates, its outgoing edge);
 *   the group goes away when it held nothing else, else only the start block does;
 * - the groupId copies older versions kept on blocks and edge sources are dropped: v6
 *   derives them from where a block sits, and stale copies would mislead;
 * - a v6 bot has exactly one start event: extra ones are dropped, one is created at
 *   {x: 0, y: 0} when there is none;
 * - edges pointing to missing events, groups, blocks or items are dropped and the
 *   outgoingEdgeIds naming dropped edges cleared (see pruneEdges);
 * - coordinates become numbers (numeric strings are read, anything else is 0).
 * What it keeps: every field it does not know, and loosely typed option values ("50"
 * where a number is expected): the engine and the forms read those as they come.
 */
import { isPlainObject, omit, pruneEdges } from './graph.js'
import { createId } from './new_bot.js'
import {
  DEFAULT_BOT_NAME,
  defaultSettings,
  defaultTheme,
  type Block,
  type BotEvent,
  type BotV6,
  type BotVersion,
  type Coordinates,
  type Edge,
  type Group,
} from './types.js'

export const BOT_FORMAT_VERSION = '6'

export const SUPPORTED_VERSIONS: readonly BotVersion[] = ['3', '4', '5', '6']

/**
 * The format version a raw bot declares: '3' when absent; numbers are read as strings.
 * Any "6.x" (6.1 is what exports declare today, later minor versions keep the v6
 * structure) is read as '6' (docs/migrating-from-typebot.md).
 */
export function versionOf(raw: Record<string, unknown>): string {
  const version = raw.version
  if (version === undefined || version === null || version === '') return '3'
  const declared = String(version).trim()
  return /^6\.\d+$/.test(declared) ? '6' : declared
}

function toCoordinate(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) ? number : 0
}

function coordinatesOf(value: unknown): Coordinates {
  if (!isPlainObject(value)) return { x: 0, y: 0 }
  return { ...value, x: toCoordinate(value.x), y: toCoordinate(value.y) }
}

function objectsIn(value: unknown): Record<string, any>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : []
}

function normalizeBlock(raw: Record<string, any>, isLegacy: boolean): Block {
  const block: Record<string, any> = { ...raw }
  if (isLegacy) delete block.groupId
  if (block.items !== undefined) block.items = objectsIn(block.items)
  return block as Block
}

function normalizeGroup(raw: Record<string, any>, isLegacy: boolean): Group {
  return {
    ...raw,
    id: raw.id,
    title:
      typeof raw.title === 'string'
        ? raw.title
        : raw.title === null || raw.title === undefined
          ? ''
          : String(raw.title),
    graphCoordinates: coordinatesOf(raw.graphCoordinates),
    blocks: objectsIn(raw.blocks).map((block) => normalizeBlock(block, isLegacy)),
  }
}

function normalizeEdge(raw: Record<string, any>, isLegacy: boolean): Edge {
  if (!isLegacy || !isPlainObject(raw.from) || !('groupId' in raw.from)) return raw as Edge
  return { ...raw, from: omit(raw.from, 'groupId') } as Edge
}

/**
 * Turns the start groups of versions before 6 into the start event. The first start
 * group found gives the event; any other start block is removed like it (a v6 bot has
 * one way in).
 */
function startGroupsToEvent(groups: Group[], edges: Edge[]) {
  let event: BotEvent | undefined
  const keptGroups: Group[] = []
  let nextEdges = edges
  for (const group of groups) {
    const first = group.blocks[0]
    if (!first || first.type !== 'start') {
      keptGroups.push(group)
      continue
    }
    if (!event) {
      event = {
        id: first.id,
        type: 'start',
        graphCoordinates: { x: group.graphCoordinates.x, y: group.graphCoordinates.y },
        ...(first.outgoingEdgeId ? { outgoingEdgeId: first.outgoingEdgeId } : {}),
      }
      nextEdges = nextEdges.map((edge) =>
        isPlainObject(edge.from) && (edge.from as { blockId?: string }).blockId === first.id
          ? { ...edge, from: { eventId: first.id } }
          : edge
      )
    }
    if (group.blocks.length === 1) continue
    keptGroups.push({ ...group, blocks: group.blocks.slice(1) })
    // Edges aimed at the start block now land on the group, i.e. on what followed it.
    nextEdges = nextEdges.map((edge) => {
      if (!isPlainObject(edge.to) || edge.to.blockId !== first.id) return edge
      return { ...edge, to: omit(edge.to, 'blockId') }
    })
  }
  return { groups: keptGroups, edges: nextEdges, event }
}

/** Keeps the first start event (with sane coordinates) and any other event untouched. */
function oneStartEvent(events: Record<string, any>[], fromStartGroup?: BotEvent): BotEvent[] {
  const others: BotEvent[] = []
  let start: BotEvent | undefined = fromStartGroup
  for (const raw of events) {
    if (raw.type !== 'start') {
      others.push(raw as BotEvent)
      continue
    }
    if (start || typeof raw.id !== 'string') continue
    start = { ...raw, graphCoordinates: coordinatesOf(raw.graphCoordinates) } as BotEvent
  }
  start ??= { id: createId(), type: 'start', graphCoordinates: { x: 0, y: 0 } }
  return [start, ...others]
}

/**
 * Any supported bot content, as version 6. Throws a TypeError when `raw` is not an
 * object or declares a version this code does not know (importBot turns that into the
 * user-facing parse error). Never mutates `raw`.
 */
export function migrateBot(raw: unknown): BotV6 {
  if (!isPlainObject(raw)) throw new TypeError('Bot content must be an object')
  const version = versionOf(raw)
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
    throw new TypeError(`Unsupported bot version "${version}"`)
  }
  const source = structuredClone(raw) as Record<string, any>
  const isLegacy = version !== '6'

  let groups = objectsIn(source.groups).map((group) => normalizeGroup(group, isLegacy))
  let edges = objectsIn(source.edges).map((edge) => normalizeEdge(edge, isLegacy))
  let startFromGroup: BotEvent | undefined
  if (isLegacy) {
    const converted = startGroupsToEvent(groups, edges)
    groups = converted.groups
    edges = converted.edges
    startFromGroup = converted.event
  }

  const bot: BotV6 = {
    ...source,
    version: BOT_FORMAT_VERSION,
    name:
      typeof source.name === 'string'
        ? source.name
        : source.name === null || source.name === undefined
          ? DEFAULT_BOT_NAME
          : String(source.name),
    groups,
    events: oneStartEvent(objectsIn(source.events), startFromGroup),
    edges,
    variables: objectsIn(source.variables) as BotV6['variables'],
    theme: isPlainObject(source.theme) ? source.theme : defaultTheme(),
    settings: isPlainObject(source.settings) ? source.settings : defaultSettings(),
  }
  return pruneEdges(bot)
}
