/**
 * The two gates bot content passes: importBot for files builders bring (anything may
 * arrive) and validateBot before every save (the editor's own output, or an API
 * caller's). Dependency-free so that the editor runs the very same checks before it
 * sends anything.
 */
import { isPlainObject, mapStrings, parsedImport, round2 } from './graph.js'
import { migrateBot, SUPPORTED_VERSIONS, versionOf } from './migrate.js'
import {
  checkCoordinates as checkCoordinatesOf,
  checkVariable,
  uniqueIdCheck,
} from './graph_checks.js'
import type { BotEvent, BotV6, Group, Variable } from './types.js'
import { TIMEOUT_MAX_SECONDS, TIMEOUT_MIN_SECONDS } from './types.js'
import { freeVariableName, variableNameProblem } from './variable_names.js'

export const BOT_PARSE_ERROR_MESSAGE = "Failed to parse the file. Are you sure it's a bot?"

/** The only error importBot throws; its message is the one builders are shown. */
export class BotParseError extends Error {
  readonly status = 400
  readonly code = 'E_BOT_PARSE'

  constructor(options?: { cause?: unknown }) {
    super(BOT_PARSE_ERROR_MESSAGE, options)
    this.name = 'BotParseError'
  }
}

// ---------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------

/** Exports of this ecosystem sometimes wrap the bot: {typebot: {...}} or {bot: {...}}. */
function unwrap(value: unknown): unknown {
  if (!isPlainObject(value) || Array.isArray(value.groups)) return value
  for (const key of ['typebot', 'bot']) {
    if (isPlainObject(value[key])) return value[key]
  }
  return value
}

const optionalArray = (value: unknown) => value === undefined || Array.isArray(value)

/**
 * The least a value must have to be taken for a bot (everything else is repaired by the
 * migration or reported by validateBot on save):
 * - an object with a `groups` array, each group an object with a string id and, when
 *   present, a `blocks` array whose blocks are objects with a string type;
 * - `edges`, `events` and `variables`, when present, arrays;
 * - `version`, when present, one of 3, 4, 5, 6 or any 6.x (number or string).
 * Files of the pre-3 format (no groups) and other JSON are refused.
 */
function isPlausibleBot(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value) || !Array.isArray(value.groups)) return false
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(versionOf(value))) return false
  if (!optionalArray(value.edges) || !optionalArray(value.events)) return false
  if (!optionalArray(value.variables)) return false
  return value.groups.every(
    (group: unknown) =>
      isPlainObject(group) &&
      typeof group.id === 'string' &&
      (group.blocks === undefined ||
        (Array.isArray(group.blocks) &&
          group.blocks.every(
            (block: unknown) => isPlainObject(block) && typeof block.type === 'string'
          )))
  )
}

/**
 * Other tools allow names our rule refuses ("Age?"). Such names are sanitized (made
 * unique with " 2", " 3"... when two collapse into one, "Variable" when nothing is
 * left) and the {{Old name}} references in blocks and settings rewritten, so that an
 * imported bot saves and still runs the same.
 */
export function repairVariableNames(bot: BotV6): BotV6 {
  const renames = new Map<string, string>()
  const taken = new Set(
    bot.variables.filter((v) => !variableNameProblem(v.name)).map((v) => v.name)
  )
  const variables = bot.variables.map((variable): Variable => {
    if (!variableNameProblem(variable.name)) return variable
    const name = freeVariableName(variable.name, taken)
    if (typeof variable.name === 'string') renames.set(variable.name, name)
    return { ...variable, name }
  })
  if (variables.every((variable, index) => variable === bot.variables[index])) return bot
  if (renames.size === 0) return { ...bot, variables }
  const rewrite = (text: string) =>
    text.includes('{{')
      ? text.replace(/{{([^{}]+)}}/g, (match, name: string) =>
          renames.has(name) ? `{{${renames.get(name)}}}` : match
        )
      : text
  return {
    ...bot,
    variables,
    groups: mapStrings(bot.groups, rewrite) as Group[],
    settings: mapStrings(bot.settings, rewrite) as BotV6['settings'],
  }
}

/**
 * A file the builder imports, as v6 content: a bot object, its JSON text, or either
 * wrapped in {typebot} or {bot}. Unknown fields are kept; the caller decides which
 * identifying fields (id, workspaceId, publicId, customDomain, folderId...) to replace.
 * Throws BotParseError for anything that is not a bot.
 */
export function importBot(raw: unknown): BotV6 {
  const value = unwrap(parsedImport(raw, (cause) => new BotParseError({ cause })))
  if (!isPlausibleBot(value)) throw new BotParseError()
  try {
    return repairVariableNames(migrateBot(value))
  } catch (error) {
    throw new BotParseError({ cause: error })
  }
}

// ---------------------------------------------------------------------------
// Validation before save
// ---------------------------------------------------------------------------

export interface BotValidationError {
  /** Dotted path into the bot: 'groups.0.blocks.2.type'. */
  path: string
  message: string
}

export type BotValidationResult =
  { ok: true; bot: BotV6 } | { ok: false; errors: BotValidationError[] }

/**
 * Structural checks before a save: the shape of v6, unique ids across groups, blocks,
 * items, edges, events and variables, edges joining existing things (one edge per
 * source, named by that source's outgoingEdgeId), string block types, string group
 * titles, finite coordinates, variable names per the rule, exactly one start event.
 * Block options are not checked here: each plugin's validator does that.
 * On success returns a copy with coordinates rounded to 2 decimals.
 */
export function validateBot(bot: unknown): BotValidationResult {
  const errors: BotValidationError[] = []
  const report = (path: string, message: string) => errors.push({ path, message })

  if (!isPlainObject(bot)) {
    report('', 'Bot content must be an object')
    return { ok: false, errors }
  }
  if (bot.version !== '6') report('version', 'Version must be "6"')
  if (typeof bot.name !== 'string') report('name', 'Name must be a text')
  for (const key of ['groups', 'events', 'edges', 'variables']) {
    if (!Array.isArray(bot[key])) report(key, `${key} must be a list`)
  }
  for (const key of ['theme', 'settings']) {
    if (!isPlainObject(bot[key])) report(key, `${key} must be an object`)
  }
  if (errors.length > 0) return { ok: false, errors }

  const checkId = uniqueIdCheck(report)
  const checkCoordinates = (path: string, coordinates: unknown) =>
    checkCoordinatesOf(report, path, coordinates)

  // What edges may point at, and which edge each source names.
  const groupBlocks = new Map<string, Set<string>>()
  const blockIds = new Set<string>()
  const blockItems = new Map<string, Set<string>>()
  const eventIds = new Set<string>()
  const namedEdges: { path: string; edgeId: unknown; sourceKey: string }[] = []
  const timeoutBlocks = new Set<string>()

  bot.groups.forEach((group: unknown, g: number) => {
    const path = `groups.${g}`
    if (!isPlainObject(group)) return report(path, 'Group must be an object')
    const hasId = checkId(path, group.id)
    if (typeof group.title !== 'string') report(`${path}.title`, 'Title must be a text')
    checkCoordinates(`${path}.graphCoordinates`, group.graphCoordinates)
    if (!Array.isArray(group.blocks)) return report(`${path}.blocks`, 'blocks must be a list')
    const ownBlockIds = new Set<string>()
    if (hasId) groupBlocks.set(group.id, ownBlockIds)
    group.blocks.forEach((block: unknown, b: number) => {
      const blockPath = `${path}.blocks.${b}`
      if (!isPlainObject(block)) return report(blockPath, 'Block must be an object')
      if (!checkId(blockPath, block.id)) return
      ownBlockIds.add(block.id)
      blockIds.add(block.id)
      if (typeof block.type !== 'string' || block.type.trim() === '') {
        report(`${blockPath}.type`, 'Type must be a non-empty text')
      }
      if (block.outgoingEdgeId !== undefined) {
        namedEdges.push({
          path: `${blockPath}.outgoingEdgeId`,
          edgeId: block.outgoingEdgeId,
          sourceKey: `block:${block.id}`,
        })
      }
      if (block.timeout !== undefined) {
        const timeout = block.timeout
        if (
          !isPlainObject(timeout) ||
          typeof timeout.seconds !== 'number' ||
          !Number.isInteger(timeout.seconds) ||
          timeout.seconds < TIMEOUT_MIN_SECONDS ||
          timeout.seconds > TIMEOUT_MAX_SECONDS
        ) {
          report(
            `${blockPath}.timeout`,
            `timeout must be {seconds} with whole seconds from ${TIMEOUT_MIN_SECONDS} to ${TIMEOUT_MAX_SECONDS}`
          )
        } else {
          timeoutBlocks.add(block.id)
          if (timeout.outgoingEdgeId !== undefined) {
            namedEdges.push({
              path: `${blockPath}.timeout.outgoingEdgeId`,
              edgeId: timeout.outgoingEdgeId,
              sourceKey: `timeout:${block.id}`,
            })
          }
        }
      }
      if (block.items === undefined) return
      if (!Array.isArray(block.items)) return report(`${blockPath}.items`, 'items must be a list')
      const itemIds = new Set<string>()
      blockItems.set(block.id, itemIds)
      block.items.forEach((item: unknown, i: number) => {
        const itemPath = `${blockPath}.items.${i}`
        if (!isPlainObject(item)) return report(itemPath, 'Item must be an object')
        if (!checkId(itemPath, item.id)) return
        itemIds.add(item.id)
        if (item.blockId !== undefined && item.blockId !== block.id) {
          report(`${itemPath}.blockId`, 'blockId must be the id of the block holding the item')
        }
        if (item.outgoingEdgeId !== undefined) {
          namedEdges.push({
            path: `${itemPath}.outgoingEdgeId`,
            edgeId: item.outgoingEdgeId,
            sourceKey: `item:${block.id}:${item.id}`,
          })
        }
      })
    })
  })

  let startEvents = 0
  bot.events.forEach((event: unknown, e: number) => {
    const path = `events.${e}`
    if (!isPlainObject(event)) return report(path, 'Event must be an object')
    if (!checkId(path, event.id)) return
    eventIds.add(event.id)
    if (typeof event.type !== 'string') report(`${path}.type`, 'Type must be a text')
    if (event.type === 'start') startEvents++
    checkCoordinates(`${path}.graphCoordinates`, event.graphCoordinates)
    if (event.outgoingEdgeId !== undefined) {
      namedEdges.push({
        path: `${path}.outgoingEdgeId`,
        edgeId: event.outgoingEdgeId,
        sourceKey: `event:${event.id}`,
      })
    }
  })
  if (startEvents !== 1) {
    report('events', `A bot needs exactly one start event (found ${startEvents})`)
  }

  const edgeSources = new Map<string, string>()
  const sourcesWithEdge = new Set<string>()
  bot.edges.forEach((edge: unknown, e: number) => {
    const path = `edges.${e}`
    if (!isPlainObject(edge)) return report(path, 'Edge must be an object')
    const hasId = checkId(path, edge.id)
    const { from, to } = edge
    let key: string | undefined
    if (!isPlainObject(from)) {
      report(`${path}.from`, 'from must be an object')
    } else if ('eventId' in from) {
      if (eventIds.has(from.eventId)) key = `event:${from.eventId}`
      else report(`${path}.from.eventId`, `No event has the id "${from.eventId}"`)
    } else if (typeof from.blockId !== 'string' || !blockIds.has(from.blockId)) {
      report(`${path}.from.blockId`, `No block has the id "${String(from.blockId)}"`)
    } else if (from.timeout !== undefined) {
      if (from.timeout === true && from.itemId === undefined && timeoutBlocks.has(from.blockId))
        key = `timeout:${from.blockId}`
      else report(`${path}.from.timeout`, 'The block has no reply timeout')
    } else if (from.itemId === undefined) {
      key = `block:${from.blockId}`
    } else if (blockItems.get(from.blockId)?.has(from.itemId)) {
      key = `item:${from.blockId}:${from.itemId}`
    } else {
      report(`${path}.from.itemId`, `No item of the block has the id "${String(from.itemId)}"`)
    }
    if (!isPlainObject(to)) {
      report(`${path}.to`, 'to must be an object')
    } else if (typeof to.groupId !== 'string' || !groupBlocks.has(to.groupId)) {
      report(`${path}.to.groupId`, `No group has the id "${String(to.groupId)}"`)
    } else if (to.blockId !== undefined && !groupBlocks.get(to.groupId)!.has(to.blockId)) {
      report(`${path}.to.blockId`, `No block of the group has the id "${String(to.blockId)}"`)
    }
    if (!key) return
    if (sourcesWithEdge.has(key)) report(`${path}.from`, 'This source already has an edge')
    sourcesWithEdge.add(key)
    if (hasId) edgeSources.set(edge.id as string, key)
  })
  for (const { path, edgeId, sourceKey } of namedEdges) {
    if (typeof edgeId !== 'string' || edgeSources.get(edgeId) !== sourceKey) {
      report(path, `No edge "${String(edgeId)}" leaves from here`)
    }
  }

  bot.variables.forEach((variable: unknown, v: number) => {
    const path = `variables.${v}`
    if (!checkVariable(report, checkId, path, variable)) return
    if (
      variable.isSessionVariable !== undefined &&
      typeof variable.isSessionVariable !== 'boolean'
    ) {
      report(`${path}.isSessionVariable`, 'Must be true or false')
    }
  })

  if (errors.length > 0) return { ok: false, errors }
  const valid = bot as unknown as BotV6
  const rounded = <T extends Group | BotEvent>(node: T): T => ({
    ...node,
    graphCoordinates: {
      ...node.graphCoordinates,
      x: round2(node.graphCoordinates.x),
      y: round2(node.graphCoordinates.y),
    },
  })
  return {
    ok: true,
    bot: { ...valid, groups: valid.groups.map(rounded), events: valid.events.map(rounded) },
  }
}
