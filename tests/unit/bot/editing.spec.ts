import { test } from '@japa/runner'
import {
  addGroup,
  addItem,
  connect,
  copySelection,
  createVariable,
  deleteBlock,
  deleteEdge,
  deleteGroup,
  deleteItem,
  duplicateBlock,
  duplicateGroup,
  insertBlock,
  isEmptyGroupPresent,
  moveBlock,
  moveBlockToNewGroup,
  moveEvent,
  moveGroup,
  newBlock,
  nextGroupTitle,
  pasteSelection,
  removeEmptyGroups,
  removeVariable,
  renameGroup,
  renameVariable,
  sanitizeVariableName,
  suggestVariables,
  updateBlockContent,
  updateBlockOptions,
  updateItem,
  variableToCreate,
} from '#shared/bot/editing'
import { createBotContent } from '#shared/bot/new_bot'
import { validateBot } from '#shared/bot/parse'
import type { BotV6, Variable } from '#shared/bot/types'
import { blockOf, edgeOf, frozen, groupOf, pizzaBot } from './fixtures.js'

/** Every operation must leave a bot that still saves. */
function assertValid(assert: any, bot: BotV6) {
  const result = validateBot(bot)
  assert.isTrue(result.ok, JSON.stringify(result.ok ? '' : result.errors))
}

const ID = /^[a-z][a-z0-9]{24}$/

test.group('Editing / edges', () => {
  test('connect adds an edge and sets the source outgoingEdgeId', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = connect(bot, { blockId: 'b_set' }, { groupId: 'g_welcome' }, 'e_new')
    assert.deepEqual(edgeOf(next, 'e_new'), {
      id: 'e_new',
      from: { blockId: 'b_set' },
      to: { groupId: 'g_welcome' },
    })
    assert.equal(blockOf(next, 'b_set').outgoingEdgeId, 'e_new')
    assert.notProperty(blockOf(bot, 'b_set'), 'outgoingEdgeId')
    assertValid(assert, next)
  })

  test('a new edge from a source replaces its previous edge (event, block, item)', ({ assert }) => {
    let bot = frozen(pizzaBot())
    bot = connect(bot, { eventId: 'ev_start' }, { groupId: 'g_end' }, 'e1')
    bot = connect(bot, { blockId: 'b_size' }, { groupId: 'g_end', blockId: 'b_set' }, 'e2')
    bot = connect(bot, { blockId: 'b_size', itemId: 'i_small' }, { groupId: 'g_ab' }, 'e3')
    for (const replaced of ['e_event', 'e_size_default', 'e_small']) {
      assert.isUndefined(edgeOf(bot, replaced))
    }
    assert.equal(bot.events[0].outgoingEdgeId, 'e1')
    assert.equal(blockOf(bot, 'b_size').outgoingEdgeId, 'e2')
    assert.equal(blockOf(bot, 'b_size').items![0].outgoingEdgeId, 'e3')
    assert.lengthOf(bot.edges, 6)
    assertValid(assert, bot)
  })

  test('connect to or from something missing changes nothing', ({ assert }) => {
    const bot = pizzaBot()
    assert.strictEqual(connect(bot, { blockId: 'nope' }, { groupId: 'g_end' }), bot)
    assert.strictEqual(connect(bot, { eventId: 'nope' }, { groupId: 'g_end' }), bot)
    assert.strictEqual(connect(bot, { blockId: 'b_size', itemId: 'x' }, { groupId: 'g_end' }), bot)
    assert.strictEqual(connect(bot, { blockId: 'b_set' }, { groupId: 'nope' }), bot)
    assert.strictEqual(
      connect(bot, { blockId: 'b_set' }, { groupId: 'g_ab', blockId: 'b_set' }),
      bot
    )
  })

  test('deleteEdge removes the edge and clears the outgoingEdgeId', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = deleteEdge(bot, 'e_small')
    assert.isUndefined(edgeOf(next, 'e_small'))
    assert.notProperty(blockOf(next, 'b_size').items![0], 'outgoingEdgeId')
    assert.strictEqual(deleteEdge(bot, 'nope'), bot)
    assertValid(assert, next)
  })
})

test.group('Editing / groups', () => {
  test('addGroup titles it Group #N with the next free number', ({ assert }) => {
    const bot = frozen(pizzaBot())
    assert.equal(nextGroupTitle(bot), 'Group #5')
    const block = newBlock('text', { content: { plainText: 'Hi' } })
    const { bot: next, groupId } = addGroup(bot, { coordinates: { x: 10.555, y: 3 }, block })
    const group = groupOf(next, groupId!)
    assert.equal(group.title, 'Group #5')
    assert.deepEqual(group.graphCoordinates, { x: 10.56, y: 3 })
    assert.deepEqual(group.blocks, [block])
    assert.equal(nextGroupTitle(createBotContent()), 'Group #1')
    assertValid(assert, next)
  })

  test('addGroup refuses ids already in use', ({ assert }) => {
    const bot = pizzaBot()
    const block = newBlock('text', { id: 'b_end' })
    assert.strictEqual(addGroup(bot, { coordinates: { x: 0, y: 0 }, block }).bot, bot)
  })

  test('deleteGroup removes its edges, in and out', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = deleteGroup(bot, 'g_check')
    assert.notInclude(
      next.groups.map((group) => group.id),
      'g_check'
    )
    // e_small and e_size_default pointed to it; e_condition and e_else left from it.
    assert.deepEqual(
      next.edges.map((edge) => edge.id),
      ['e_event', 'e_path_a']
    )
    assert.notProperty(blockOf(next, 'b_size'), 'outgoingEdgeId')
    assertValid(assert, next)
  })

  test('moveGroup rounds coordinates to 2 decimals', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = moveGroup(bot, 'g_end', { x: 10.12345, y: -3.005001 })
    assert.deepEqual(groupOf(next, 'g_end').graphCoordinates, { x: 10.12, y: -3.01 })
    assert.strictEqual(moveGroup(next, 'g_end', { x: 10.121, y: -3.01 }), next)
    assert.strictEqual(moveGroup(bot, 'nope', { x: 1, y: 1 }), bot)
    const moved = moveEvent(bot, 'ev_start', { x: 1.999, y: 2 })
    assert.deepEqual(moved.events[0].graphCoordinates, { x: 2, y: 2 })
  })

  test('renameGroup sets the title and ignores a blank one', ({ assert }) => {
    const bot = frozen(pizzaBot())
    assert.equal(groupOf(renameGroup(bot, 'g_end', 'The end'), 'g_end').title, 'The end')
    assert.strictEqual(renameGroup(bot, 'g_end', '   '), bot)
  })

  test('duplicateGroup: new ids, no outgoing edges, offset, unique title', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const { bot: next, groupId } = duplicateGroup(bot, 'g_welcome')
    const copy = groupOf(next, groupId!)
    const original = groupOf(bot, 'g_welcome')
    assert.match(copy.id, ID)
    assert.equal(copy.title, 'Group #1 copy')
    assert.deepEqual(copy.graphCoordinates, { x: 200, y: 100 })
    assert.lengthOf(copy.blocks, 2)
    for (const [index, block] of copy.blocks.entries()) {
      assert.notEqual(block.id, original.blocks[index].id)
      assert.equal(block.type, original.blocks[index].type)
      assert.notProperty(block, 'outgoingEdgeId')
    }
    const items = copy.blocks[1].items!
    assert.notEqual(items[0].id, 'i_small')
    assert.equal(items[0].blockId, copy.blocks[1].id)
    assert.notProperty(items[0], 'outgoingEdgeId')
    assert.equal(items[0].content, 'Small')
    assert.deepEqual(next.edges, bot.edges)
    // A second copy gets the next unique title.
    const again = duplicateGroup(next, 'g_welcome')
    assert.equal(groupOf(again.bot, again.groupId!).title, 'Group #1 copy 2')
    assertValid(assert, again.bot)
  })

  test('empty groups are removed automatically, and detected for undo', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const withEmpty = addGroup(bot, { coordinates: { x: 0, y: 0 } }).bot
    assert.isTrue(isEmptyGroupPresent(withEmpty))
    assert.isFalse(isEmptyGroupPresent(bot))
    assert.deepEqual(removeEmptyGroups(withEmpty), bot)
    assert.strictEqual(removeEmptyGroups(bot), bot)
  })
})

test.group('Editing / blocks', () => {
  test('insertBlock puts a block at the index', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const block = newBlock('image', { options: { url: 'x' } })
    const next = insertBlock(bot, 'g_welcome', 1, block)
    assert.deepEqual(
      groupOf(next, 'g_welcome').blocks.map((b) => b.id),
      ['b_welcome', block.id, 'b_size']
    )
    // Not at the end: the last block keeps its edge.
    assert.equal(blockOf(next, 'b_size').outgoingEdgeId, 'e_size_default')
    assertValid(assert, next)
  })

  test('a block inserted after the last block removes that block outgoing edge', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const block = newBlock('text')
    const next = insertBlock(bot, 'g_welcome', 99, block)
    assert.equal(groupOf(next, 'g_welcome').blocks[2].id, block.id)
    assert.notProperty(blockOf(next, 'b_size'), 'outgoingEdgeId')
    assert.isUndefined(edgeOf(next, 'e_size_default'))
    // Item edges are the items' own: they stay.
    assert.equal(blockOf(next, 'b_size').items![0].outgoingEdgeId, 'e_small')
    assertValid(assert, next)
  })

  test('insertBlock refuses a missing group or a used id, and strips edges of new blocks', ({
    assert,
  }) => {
    const bot = pizzaBot()
    assert.strictEqual(insertBlock(bot, 'nope', 0, newBlock('text')), bot)
    assert.strictEqual(insertBlock(bot, 'g_end', 0, newBlock('text', { id: 'i_small' })), bot)
    const carried = { ...newBlock('text'), outgoingEdgeId: 'e_else' }
    const next = insertBlock(bot, 'g_end', 2, carried)
    assert.notProperty(blockOf(next, carried.id), 'outgoingEdgeId')
    assert.equal(blockOf(next, 'b_condition').outgoingEdgeId, 'e_else')
  })

  test('newBlock gives ids to the block and its items', ({ assert }) => {
    const block = newBlock('AB test', {
      options: { aPercent: 50 },
      items: [{ path: 'a' }, { path: 'b' }],
    })
    assert.match(block.id, ID)
    assert.lengthOf(block.items!, 2)
    for (const item of block.items!) {
      assert.match(item.id, ID)
      assert.equal(item.blockId, block.id)
    }
    assert.equal(block.items![1].path, 'b')
  })

  test('moveBlock within its group reorders it', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = moveBlock(bot, 'b_set', 'g_end', 0)
    assert.deepEqual(
      groupOf(next, 'g_end').blocks.map((b) => b.id),
      ['b_set', 'b_end']
    )
    assert.strictEqual(moveBlock(bot, 'b_set', 'g_end', 1), bot)
    assert.strictEqual(moveBlock(bot, 'nope', 'g_end', 1), bot)
    assert.strictEqual(moveBlock(bot, 'b_set', 'nope', 1), bot)
  })

  test('moveBlock to another group: edges aimed at it follow, its old group goes if empty', ({
    assert,
  }) => {
    const bot = frozen(pizzaBot())
    // b_condition is alone in g_check: g_check goes, edges into g_check go with it.
    const next = moveBlock(bot, 'b_condition', 'g_end', 1)
    assert.notInclude(
      next.groups.map((group) => group.id),
      'g_check'
    )
    assert.isUndefined(edgeOf(next, 'e_small'))
    // Landing in the middle: its own outgoing edge would skip b_set, so it goes.
    assert.notProperty(blockOf(next, 'b_condition'), 'outgoingEdgeId')
    assert.equal(blockOf(next, 'b_condition').items![0].outgoingEdgeId, 'e_condition')
    assertValid(assert, next)

    const targeted = moveBlock(bot, 'b_set', 'g_welcome', 0)
    assert.deepEqual(edgeOf(targeted, 'e_path_a')!.to, { groupId: 'g_welcome', blockId: 'b_set' })
    assertValid(assert, targeted)
  })

  test('moveBlock to the end of a group: the previous last block loses its edge', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = moveBlock(bot, 'b_condition', 'g_welcome', 2)
    assert.notProperty(blockOf(next, 'b_size'), 'outgoingEdgeId')
    assert.equal(blockOf(next, 'b_condition').outgoingEdgeId, 'e_else')
    assertValid(assert, next)
  })

  test('moveBlockToNewGroup makes a group for a block dragged onto the canvas', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const { bot: next, groupId } = moveBlockToNewGroup(bot, 'b_set', { x: 5.555, y: 6 })
    const group = groupOf(next, groupId!)
    assert.equal(group.title, 'Group #5')
    assert.deepEqual(group.graphCoordinates, { x: 5.56, y: 6 })
    assert.deepEqual(edgeOf(next, 'e_path_a')!.to, { groupId, blockId: 'b_set' })
    assertValid(assert, next)
  })

  test('deleteBlock removes its edges, in and out', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = deleteBlock(bot, 'b_size')
    for (const gone of ['e_small', 'e_size_default']) assert.isUndefined(edgeOf(next, gone))
    const aimed = deleteBlock(bot, 'b_set')
    assert.isUndefined(edgeOf(aimed, 'e_path_a'))
    assert.notProperty(blockOf(aimed, 'b_ab').items![0], 'outgoingEdgeId')
    assert.strictEqual(deleteBlock(bot, 'nope'), bot)
    assertValid(assert, next)
    assertValid(assert, aimed)
  })

  test('deleting the last block of a group removes the group', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = deleteBlock(bot, 'b_ab')
    assert.notInclude(
      next.groups.map((group) => group.id),
      'g_ab'
    )
    assert.isUndefined(edgeOf(next, 'e_condition'))
    assert.notProperty(blockOf(next, 'b_condition').items![0], 'outgoingEdgeId')
    assertValid(assert, next)
  })

  test('duplicateBlock: a new group offset by 200/100, new ids, no edges', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const { bot: next, groupId, blockId } = duplicateBlock(bot, 'b_condition')
    const group = groupOf(next, groupId!)
    assert.deepEqual(group.graphCoordinates, { x: 600, y: 100 })
    assert.equal(group.title, 'Group #5')
    const copy = blockOf(next, blockId!)
    assert.notEqual(copy.id, 'b_condition')
    assert.notProperty(copy, 'outgoingEdgeId')
    assert.notEqual(copy.items![0].id, 'i_is_small')
    assert.notProperty(copy.items![0], 'outgoingEdgeId')
    assert.deepEqual(copy.items![0].content, blockOf(bot, 'b_condition').items![0].content)
    assert.deepEqual(next.edges, bot.edges)
    assertValid(assert, next)
  })

  test('updateBlockOptions merges, or replaces through a function', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const merged = updateBlockOptions(bot, 'b_size', { isSearchable: true })
    assert.deepEqual(blockOf(merged, 'b_size').options, {
      variableId: 'v_size',
      isMultipleChoice: false,
      isSearchable: true,
    })
    const replaced = updateBlockOptions(bot, 'b_size', () => ({ buttonLabel: 'Go' }))
    assert.deepEqual(blockOf(replaced, 'b_size').options, { buttonLabel: 'Go' })
    const content = updateBlockContent(bot, 'b_end', { plainText: 'Done' })
    assert.equal(blockOf(content, 'b_end').content!.plainText, 'Done')
    // Groups that did not change keep their identity.
    assert.strictEqual(merged.groups[1], bot.groups[1])
    assert.strictEqual(updateBlockOptions(bot, 'nope', { a: 1 }), bot)
  })
})

test.group('Editing / items', () => {
  test('addItem adds an item with a new id at the end or at an index', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const { bot: next, itemId } = addItem(bot, 'b_size', { content: 'Medium' }, { index: 1 })
    const items = blockOf(next, 'b_size').items!
    assert.deepEqual(
      items.map((item) => item.id),
      ['i_small', itemId, 'i_large']
    )
    assert.deepEqual(items[1], { id: itemId!, blockId: 'b_size', content: 'Medium' })
    const last = addItem(bot, 'b_condition')
    assert.equal(blockOf(last.bot, 'b_condition').items![1].id, last.itemId)
    assert.strictEqual(addItem(bot, 'b_ab', {}, { maxItems: 2 }).bot, bot)
    assert.strictEqual(addItem(bot, 'nope').bot, bot)
    assertValid(assert, next)
  })

  test('deleteItem removes the item and its edge', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const result = deleteItem(bot, 'b_size', 'i_small')
    assert.isTrue(result.deleted)
    assert.deepEqual(
      blockOf(result.bot, 'b_size').items!.map((item) => item.id),
      ['i_large']
    )
    assert.isUndefined(edgeOf(result.bot, 'e_small'))
    assertValid(assert, result.bot)
  })

  test('the last item of a block cannot be deleted', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const result = deleteItem(bot, 'b_condition', 'i_is_small')
    assert.deepEqual(result, { bot, deleted: false, reason: 'last-item' })
    assert.strictEqual(result.bot, bot)
    // A plugin may raise the floor (an AB test keeps its two paths).
    assert.deepEqual(deleteItem(bot, 'b_ab', 'i_path_a', { minItems: 2 }), {
      bot,
      deleted: false,
      reason: 'last-item',
    })
    assert.deepEqual(deleteItem(bot, 'b_size', 'nope'), {
      bot,
      deleted: false,
      reason: 'not-found',
    })
  })

  test('updateItem patches one item', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = updateItem(bot, 'b_size', 'i_large', { content: 'XL' })
    assert.equal(blockOf(next, 'b_size').items![1].content, 'XL')
    assert.equal(blockOf(next, 'b_size').items![1].id, 'i_large')
    assert.strictEqual(updateItem(bot, 'b_size', 'nope', { content: 'x' }), bot)
  })
})

test.group('Editing / copy and paste', () => {
  test('copySelection keeps the groups, the edges between them and used variables', ({
    assert,
  }) => {
    const clipboard = copySelection(pizzaBot(), ['g_ab', 'g_end'])
    assert.deepEqual(
      clipboard.groups.map((group) => group.id),
      ['g_ab', 'g_end']
    )
    assert.deepEqual(
      clipboard.edges.map((edge) => edge.id),
      ['e_path_a']
    )
    // v_hungry by id (Set variable), Size by {{Size}} in a text.
    assert.sameMembers(
      clipboard.variables.map((variable) => variable.name),
      ['Hungry', 'Size']
    )
    // Plain JSON: survives the system clipboard.
    assert.deepEqual(JSON.parse(JSON.stringify(clipboard)), clipboard)
  })

  test('pasteSelection remaps ids and keeps edges between pasted groups', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const clipboard = copySelection(bot, ['g_welcome', 'g_check'])
    const { bot: next, groupIds } = pasteSelection(bot, clipboard)
    assert.lengthOf(groupIds, 2)
    const [welcome, check] = groupIds.map((id) => groupOf(next, id))
    assert.deepEqual(welcome.graphCoordinates, { x: 200, y: 100 })
    assert.deepEqual(check.graphCoordinates, { x: 600, y: 100 })
    assert.equal(welcome.title, 'Group #1 copy')
    const size = welcome.blocks[1]
    assert.notEqual(size.id, 'b_size')
    assert.notEqual(size.items![0].id, 'i_small')
    assert.equal(size.items![0].blockId, size.id)
    // e_small and e_size_default joined the two pasted groups: kept, remapped.
    const small = edgeOf(next, size.items![0].outgoingEdgeId!)!
    assert.deepEqual(small.from, { blockId: size.id, itemId: size.items![0].id })
    assert.deepEqual(small.to, { groupId: check.id })
    assert.deepEqual(edgeOf(next, size.outgoingEdgeId!)!.to, { groupId: check.id })
    // e_condition and e_else led outside the selection: dropped.
    assert.notProperty(check.blocks[0], 'outgoingEdgeId')
    assert.notProperty(check.blocks[0].items![0], 'outgoingEdgeId')
    assert.lengthOf(next.edges, bot.edges.length + 2)
    // Same bot: the variables exist by name and are reused.
    assert.deepEqual(next.variables, bot.variables)
    assert.equal(size.options!.variableId, 'v_size')
    assertValid(assert, next)
  })

  test('pasteSelection at a position puts the top-left group there', ({ assert }) => {
    const bot = pizzaBot()
    const clipboard = copySelection(bot, ['g_check', 'g_end'])
    const { bot: next, groupIds } = pasteSelection(bot, clipboard, { x: 1000, y: -50 })
    assert.deepEqual(groupOf(next, groupIds[0]).graphCoordinates, { x: 1000, y: -50 })
    assert.deepEqual(groupOf(next, groupIds[1]).graphCoordinates, { x: 1800, y: 150 })
  })

  test('pasting into another bot reuses variables by name and creates the others', ({ assert }) => {
    const clipboard = copySelection(pizzaBot(), ['g_end', 'g_check'])
    const existing: Variable = { id: 'vother', name: 'Hungry' }
    const target = frozen({ ...createBotContent(), variables: [existing] })
    const { bot: next, groupIds } = pasteSelection(target, clipboard)
    assert.lengthOf(next.variables, 2)
    assert.deepEqual(next.variables[0], existing)
    const size = next.variables[1]
    assert.equal(size.name, 'Size')
    assert.match(size.id, /^v[a-z][a-z0-9]{24}$/)
    const end = groupOf(next, groupIds[1])
    assert.equal(end.blocks[1].options!.variableId, 'vother')
    const check = groupOf(next, groupIds[0])
    const comparison = (check.blocks[0].items![0].content as any).comparisons[0]
    assert.equal(comparison.variableId, size.id)
    assert.equal(end.title, 'Group #4')
    assertValid(assert, next)
  })

  test('pasting an empty clipboard changes nothing', ({ assert }) => {
    const bot = pizzaBot()
    assert.strictEqual(pasteSelection(bot, { groups: [], edges: [], variables: [] }).bot, bot)
  })
})

test.group('Editing / variables', () => {
  test('sanitizeVariableName keeps letters, digits, spaces, underscore and hyphen', ({
    assert,
  }) => {
    assert.equal(sanitizeVariableName('First name!?'), 'First name')
    assert.equal(sanitizeVariableName('e-mail_2 {{x}}.'), 'e-mail_2 x')
    assert.equal(sanitizeVariableName('Prénom Имя'), 'Prénom Имя')
    assert.equal(sanitizeVariableName('trailing '), 'trailing ')
    assert.lengthOf(sanitizeVariableName('a'.repeat(300)), 255)
  })

  test('createVariable: id v + createId, session variable, empty refused', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const { bot: next, variable } = createVariable(bot, '  Phone number? ')
    assert.deepEqual(variable, { id: variable!.id, name: 'Phone number', isSessionVariable: true })
    assert.match(variable!.id, /^v[a-z][a-z0-9]{24}$/)
    assert.deepEqual(next.variables.at(-1), variable)
    assert.deepEqual(createVariable(bot, ' !? '), { bot })
    // An existing name gives back that variable, no twin.
    const same = createVariable(bot, 'Size')
    assert.strictEqual(same.bot, bot)
    assert.equal(same.variable!.id, 'v_size')
    assertValid(assert, next)
  })

  test('renameVariable: sanitized, blank or taken names ignored', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = renameVariable(bot, 'v_size', 'Pizza size?')
    assert.equal(next.variables[0].name, 'Pizza size')
    assert.strictEqual(renameVariable(bot, 'v_size', '  '), bot)
    assert.strictEqual(renameVariable(bot, 'v_size', 'Hungry'), bot)
    assert.strictEqual(renameVariable(bot, 'nope', 'X'), bot)
  })

  test('removeVariable removes it from the list', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const next = removeVariable(bot, 'v_unused')
    assert.deepEqual(
      next.variables.map((variable) => variable.id),
      ['v_size', 'v_hungry']
    )
    assert.strictEqual(removeVariable(bot, 'nope'), bot)
  })

  test('suggestVariables filters case-insensitively by substring, 50 at most', ({ assert }) => {
    const variables = Array.from({ length: 80 }, (_, i) => ({ id: `v${i}`, name: `Item ${i}` }))
    variables.push({ id: 'vx', name: 'Other' })
    assert.lengthOf(suggestVariables(variables, ''), 50)
    assert.lengthOf(suggestVariables(variables, 'iTEM'), 50)
    assert.deepEqual(
      suggestVariables(variables, 'THE').map((v) => v.id),
      ['vx']
    )
    assert.deepEqual(
      suggestVariables(variables, 'item 7').map((v) => v.name),
      ['Item 7', ...Array.from({ length: 10 }, (_, i) => `Item ${70 + i}`)]
    )
  })

  test('variableToCreate offers a create entry only for a new, non-empty name', ({ assert }) => {
    const variables = pizzaBot().variables
    assert.equal(variableToCreate(variables, 'Crust?'), 'Crust')
    assert.isUndefined(variableToCreate(variables, 'Size'))
    assert.isUndefined(variableToCreate(variables, '?!'))
  })
})
