import { defaultItemsOf, editorViewOf } from '#plugins/derive'
import { locateBlock } from '#shared/bot/graph'
import {
  addGroup,
  connect,
  deleteBlock,
  deleteEdge,
  insertBlock,
  newBlock,
  renameGroup,
  updateBlockContent,
  updateBlockOptions,
} from '#shared/bot/editing'
import { validateBot } from '#shared/bot/parse'
import type { BotV6, EdgeSource } from '#shared/bot/types'
import {
  assertKnownOptions,
  checkedDoc,
  COMMON_TOOLS,
  commonTool,
  hinted,
  issuesOf,
  objectArg,
  optionalString,
  pluginFor,
  positionArg,
  positionOf,
  recordArg,
  stringArg,
  tool,
  ToolRefusal,
  type CopilotAdapter,
  type ToolContext,
  type ToolOutcome,
} from './tools.js'

/**
 * The copilot's tools on a bot (docs/copilot.md "Bot tools"): groups of blocks joined by
 * edges, changed only through the pure editing functions the bot editor itself uses
 * (app/shared/bot/editing.ts), so the copilot follows the same rules: a source has one way
 * out, a block placed last takes over its group's exit, empty groups go. The copy is
 * checked against the bot format after each call; the caller saves it once.
 */

const STEP_X = 350

function defaultPosition(bot: BotV6): { x: number; y: number } {
  const all = [
    ...bot.groups.map((group) => group.graphCoordinates),
    ...bot.events.map((e) => e.graphCoordinates),
  ]
  if (all.length === 0) return { x: 0, y: 0 }
  const rightmost = all.reduce((a, b) => (b.x > a.x ? b : a))
  return { x: rightmost.x + STEP_X, y: rightmost.y }
}

const checked = (bot: BotV6) => checkedDoc(bot, 'bot', validateBot(bot))

function blockOf(bot: BotV6, id: string) {
  const location = locateBlock(bot, id)
  if (!location) throw new ToolRefusal(`No block has the id "${id}".`)
  return location
}

const TOOLS = [
  ...COMMON_TOOLS,
  tool(
    'add_block',
    'Adds a block of a type from the catalogue, with its defaults: at the end of an existing group (groupId), or in a new group. Returns the block, group and item ids.',
    {
      type: { type: 'string' },
      groupId: { type: 'string' },
      groupTitle: hinted({ type: 'string' }, 'The title of the new group'),
      options: hinted(objectArg, 'Field values, named as describe_node_type says'),
      position: positionArg,
    },
    ['type']
  ),
  tool(
    'remove_block',
    'Removes a block and its edges; its group goes when left empty.',
    { blockId: { type: 'string' } },
    ['blockId']
  ),
  tool(
    'connect',
    "Links a way out (the start event, a block's exit, or one item of a choice or condition block) to a group. A way out has one edge: a new one replaces the old.",
    {
      fromStart: { type: 'boolean' },
      fromBlockId: { type: 'string' },
      fromItemId: { type: 'string' },
      toGroupId: { type: 'string' },
      toBlockId: { type: 'string' },
    },
    ['toGroupId']
  ),
  tool('disconnect', 'Removes one edge.', { edgeId: { type: 'string' } }, ['edgeId']),
  tool(
    'configure_block',
    'Sets fields of a block (merged into its options, or its content for bubbles).',
    { blockId: { type: 'string' }, options: objectArg },
    ['blockId', 'options']
  ),
  tool(
    'rename_group',
    'Renames a group.',
    { groupId: { type: 'string' }, title: { type: 'string' } },
    ['groupId', 'title']
  ),
]

async function apply(
  bot: BotV6,
  name: string,
  args: Record<string, unknown>,
  context: ToolContext
): Promise<ToolOutcome<BotV6>> {
  const common = commonTool(name, args, context)
  if (common !== undefined) return { doc: bot, result: common }

  if (name === 'add_block') {
    const plugin = pluginFor(stringArg(args, 'type'), context)
    const options = recordArg(args, 'options')
    assertKnownOptions(plugin, 'bot', options)
    const { defaults } = editorViewOf(plugin, 'bot')
    const values = { ...defaults, ...options }
    const items = defaultItemsOf(plugin)
    const block = newBlock(plugin.id, {
      ...(plugin.storedIn === 'content' ? { content: values } : { options: values }),
      ...(plugin.items || items.length > 0 ? { items } : {}),
    })
    const groupId = optionalString(args, 'groupId')
    let next: BotV6
    let inGroup: string
    if (groupId) {
      const group = bot.groups.find((candidate) => candidate.id === groupId)
      if (!group) throw new ToolRefusal(`No group has the id "${groupId}".`)
      next = insertBlock(bot, groupId, group.blocks.length, block)
      inGroup = groupId
    } else {
      const added = addGroup(bot, {
        coordinates: positionOf(args) ?? defaultPosition(bot),
        block,
        ...(optionalString(args, 'groupTitle')
          ? { title: optionalString(args, 'groupTitle') }
          : {}),
      })
      next = added.bot
      inGroup = added.groupId!
    }
    if (next === bot) throw new ToolRefusal('The block could not be placed.')
    next = checked(next)
    const placed = locateBlock(next, block.id)!.block
    return {
      doc: next,
      result: {
        blockId: block.id,
        groupId: inGroup,
        ...(placed.items ? { itemIds: placed.items.map((item) => item.id) } : {}),
        issues: await issuesOf(placed, context),
      },
    }
  }

  if (name === 'remove_block') {
    const { block } = blockOf(bot, stringArg(args, 'blockId'))
    return { doc: checked(deleteBlock(bot, block.id)), result: { removed: block.id } }
  }

  if (name === 'connect') {
    let from: EdgeSource
    if (args.fromStart === true) {
      const start = bot.events.find((event) => event.type === 'start')
      if (!start) throw new ToolRefusal('This bot has no start event.')
      from = { eventId: start.id }
    } else {
      const { block } = blockOf(bot, stringArg(args, 'fromBlockId'))
      const itemId = optionalString(args, 'fromItemId')
      if (itemId && !block.items?.some((item) => item.id === itemId)) {
        throw new ToolRefusal(`The block "${block.id}" has no item "${itemId}".`)
      }
      from = itemId ? { blockId: block.id, itemId } : { blockId: block.id }
    }
    const toGroupId = stringArg(args, 'toGroupId')
    const group = bot.groups.find((candidate) => candidate.id === toGroupId)
    if (!group) throw new ToolRefusal(`No group has the id "${toGroupId}".`)
    const toBlockId = optionalString(args, 'toBlockId')
    if (toBlockId && !group.blocks.some((block) => block.id === toBlockId)) {
      throw new ToolRefusal(`The group "${toGroupId}" has no block "${toBlockId}".`)
    }
    if ('blockId' in from && locateBlock(bot, from.blockId)!.group.id === toGroupId) {
      throw new ToolRefusal('A block cannot lead to its own group.')
    }
    const next = connect(
      bot,
      from,
      toBlockId ? { groupId: toGroupId, blockId: toBlockId } : { groupId: toGroupId }
    )
    if (next === bot) throw new ToolRefusal('These cannot be linked.')
    const edge = next.edges.find((candidate) => !bot.edges.includes(candidate))
    return { doc: checked(next), result: { edgeId: edge?.id } }
  }

  if (name === 'disconnect') {
    const edgeId = stringArg(args, 'edgeId')
    const next = deleteEdge(bot, edgeId)
    if (next === bot) throw new ToolRefusal(`No edge has the id "${edgeId}".`)
    return { doc: checked(next), result: { removed: edgeId } }
  }

  if (name === 'configure_block') {
    const { block } = blockOf(bot, stringArg(args, 'blockId'))
    const plugin = context.registry.get(block.type)
    if (!plugin) throw new ToolRefusal(`The block "${block.id}" has a type this server lacks.`)
    const options = recordArg(args, 'options') ?? {}
    assertKnownOptions(plugin, 'bot', options)
    const next =
      plugin.storedIn === 'content'
        ? updateBlockContent(bot, block.id, options)
        : updateBlockOptions(bot, block.id, options)
    const updated = locateBlock(next, block.id)!.block
    return {
      doc: checked(next),
      result: { blockId: block.id, issues: await issuesOf(updated, context) },
    }
  }

  if (name === 'rename_group') {
    const groupId = stringArg(args, 'groupId')
    if (!bot.groups.some((group) => group.id === groupId)) {
      throw new ToolRefusal(`No group has the id "${groupId}".`)
    }
    return {
      doc: checked(renameGroup(bot, groupId, stringArg(args, 'title'))),
      result: { groupId },
    }
  }

  throw new ToolRefusal(`There is no tool "${name}".`)
}

export const botAdapter: CopilotAdapter<BotV6> = {
  surface: 'bot',
  tools: TOOLS,
  outline(bot) {
    return {
      name: bot.name,
      start: bot.events
        .filter((event) => event.type === 'start')
        .map((event) => ({ id: event.id, outgoingEdgeId: event.outgoingEdgeId ?? null })),
      groups: bot.groups.map((group) => ({
        id: group.id,
        title: group.title,
        position: group.graphCoordinates,
        blocks: group.blocks.map((block) => ({
          id: block.id,
          type: block.type,
          ...(block.options ? { options: block.options } : {}),
          ...(block.content ? { content: block.content } : {}),
          ...(block.items
            ? { items: block.items.map((item) => ({ id: item.id, content: item.content })) }
            : {}),
        })),
      })),
      edges: bot.edges.map((edge) => ({ id: edge.id, from: edge.from, to: edge.to })),
      variables: bot.variables.map((variable) => ({ id: variable.id, name: variable.name })),
    }
  },
  apply,
}
