import { test } from '@japa/runner'
import { BOT_FORMAT_VERSION, migrateBot } from '#shared/bot/migrate'
import { defaultSettings, defaultTheme } from '#shared/bot/types'
import { validateBot } from '#shared/bot/parse'
import { blockOf, edgeOf, fixture, frozen, groupOf } from './fixtures.js'

test.group('Bot migration / v3 file', () => {
  test('a missing version is read as 3 and the result is version 6', ({ assert }) => {
    assert.equal(BOT_FORMAT_VERSION, '6')
    const bot = migrateBot(fixture('v3_start_group'))
    assert.equal(bot.version, '6')
  })

  test('the start group becomes the start event and goes away', ({ assert }) => {
    const bot = migrateBot(fixture('v3_start_group'))
    assert.lengthOf(bot.events, 1)
    assert.deepEqual(bot.events[0], {
      id: 'b_start',
      type: 'start',
      graphCoordinates: { x: -120, y: 40 },
      outgoingEdgeId: 'e_start',
    })
    assert.notInclude(
      bot.groups.map((group) => group.id),
      'g_start'
    )
    assert.deepEqual(edgeOf(bot, 'e_start'), {
      id: 'e_start',
      from: { eventId: 'b_start' },
      to: { groupId: 'g_hello' },
    })
  })

  test('groups lacking blocks get an empty list', ({ assert }) => {
    const bot = migrateBot(fixture('v3_start_group'))
    assert.deepEqual(groupOf(bot, 'g_empty').blocks, [])
  })

  test('invalid edges are dropped and outgoingEdgeIds naming them cleared', ({ assert }) => {
    const bot = migrateBot(fixture('v3_start_group'))
    assert.deepEqual(
      bot.edges.map((edge) => edge.id),
      ['e_start', 'e_name']
    )
    assert.notProperty(blockOf(bot, 'b_bye'), 'outgoingEdgeId')
  })

  test('groupId copies of older versions are dropped from blocks and edges', ({ assert }) => {
    const bot = migrateBot(fixture('v3_start_group'))
    assert.notProperty(blockOf(bot, 'b_name'), 'groupId')
    assert.deepEqual(edgeOf(bot, 'e_name')!.from, { blockId: 'b_name' })
  })

  test('unknown fields and loosely typed values are kept', ({ assert }) => {
    const bot = migrateBot(fixture('v3_start_group')) as any
    assert.equal(bot.legacyFlag, 'kept as is')
    assert.equal(bot.id, 'oldbot3')
    assert.deepEqual(bot.theme, { general: { font: 'Open Sans' } })
    assert.deepEqual(blockOf(bot, 'b_name').options, {
      variableId: 'v_name',
      labels: { placeholder: 'Your name', button: 'Send' },
      isLong: false,
    })
    // Coordinates are structural: a numeric string becomes a number.
    assert.deepEqual(groupOf(bot, 'g_hello').graphCoordinates, { x: 200, y: 80 })
  })

  test('the migrated file passes validation', ({ assert }) => {
    const result = validateBot(migrateBot(fixture('v3_start_group')))
    assert.isTrue(result.ok, JSON.stringify(result))
  })

  test('the input is never mutated', ({ assert }) => {
    const raw = frozen(fixture('v3_start_group'))
    assert.doesNotThrow(() => migrateBot(raw))
    assert.equal(raw.groups[0].blocks[0].type, 'start')
  })
})

test.group('Bot migration / v5 file', () => {
  test('a numeric version is read and the start block leaves its group', ({ assert }) => {
    const bot = migrateBot(fixture('v5_bot'))
    assert.equal(bot.version, '6')
    assert.deepEqual(bot.events, [
      { id: 'b_start', type: 'start', graphCoordinates: { x: 0, y: 0 } },
    ])
    // The group held more than the start block: it stays, without it.
    assert.deepEqual(
      groupOf(bot, 'g_start').blocks.map((block) => block.id),
      ['b_intro', 'b_split']
    )
  })

  test('an edge aimed at the removed start block lands on its group', ({ assert }) => {
    const bot = migrateBot(fixture('v5_bot'))
    assert.deepEqual(edgeOf(bot, 'e_loop')!.to, { groupId: 'g_start' })
    assert.equal(blockOf(bot, 'b_rate').outgoingEdgeId, 'e_loop')
  })

  test('an edge from a missing item is dropped, item edges kept', ({ assert }) => {
    const bot = migrateBot(fixture('v5_bot'))
    assert.isUndefined(edgeOf(bot, 'e_missing_item'))
    assert.deepEqual(edgeOf(bot, 'e_a')!.from, { blockId: 'b_split', itemId: 'i_a' })
    assert.equal(blockOf(bot, 'b_split').items![1].outgoingEdgeId, 'e_b')
  })

  test('unknown fields, metadata and loosely typed options are kept', ({ assert }) => {
    const bot = migrateBot(fixture('v5_bot')) as any
    assert.equal(bot.publicId, 'survey-v5')
    assert.isNull(bot.folderId)
    assert.deepEqual(bot.resultsTablePreferences, { columnsOrder: ['b_rate'] })
    assert.deepEqual(blockOf(bot, 'b_rate').options, {
      length: '10',
      buttonType: 'Numbers',
      variableId: 'v_score',
    })
    assert.deepEqual((blockOf(bot, 'b_rate') as any).futureField, { nested: [1, 2, 3] })
    assert.equal(blockOf(bot, 'b_split').options!.aPercent, '30')
    assert.equal(bot.variables[0].value, 3)
  })
})

test.group('Bot migration / v6 and missing parts', () => {
  test('a v6 bot comes out equal', ({ assert }) => {
    const raw = fixture('v6_full')
    assert.deepEqual(migrateBot(raw), raw)
  })

  test('a v6 bot without events gets one start event at the origin', ({ assert }) => {
    const bot = migrateBot({ version: '6', name: 'x', groups: [] })
    assert.lengthOf(bot.events, 1)
    assert.equal(bot.events[0].type, 'start')
    assert.deepEqual(bot.events[0].graphCoordinates, { x: 0, y: 0 })
    assert.match(bot.events[0].id, /^[a-z][a-z0-9]{24}$/)
  })

  test('extra start events are dropped with their edges; other events kept', ({ assert }) => {
    const bot = migrateBot({
      version: '6',
      groups: [
        {
          id: 'g',
          title: 'G',
          graphCoordinates: { x: 0, y: 0 },
          blocks: [{ id: 'b', type: 'text' }],
        },
      ],
      events: [
        { id: 'one', type: 'start', graphCoordinates: { x: 1, y: 1 } },
        { id: 'two', type: 'start', graphCoordinates: { x: 2, y: 2 }, outgoingEdgeId: 'e2' },
        { id: 'cmd', type: 'command', command: 'reset', graphCoordinates: { x: 3, y: 3 } },
      ],
      edges: [{ id: 'e2', from: { eventId: 'two' }, to: { groupId: 'g' } }],
    })
    assert.deepEqual(
      bot.events.map((event) => event.id),
      ['one', 'cmd']
    )
    assert.deepEqual(bot.edges, [])
  })

  test('missing name, theme, settings and lists get their defaults', ({ assert }) => {
    const bot = migrateBot({ version: '6', groups: [] })
    assert.equal(bot.name, 'My bot')
    assert.deepEqual(bot.theme, defaultTheme())
    assert.deepEqual(bot.settings, defaultSettings())
    assert.deepEqual(bot.edges, [])
    assert.deepEqual(bot.variables, [])
  })

  test('an edge left out of its source outgoingEdgeId is attached, a second one dropped', ({
    assert,
  }) => {
    const group = (id: string) => ({
      id,
      title: id,
      graphCoordinates: { x: 0, y: 0 },
      blocks: [{ id: `b${id}`, type: 'text' }],
    })
    const bot = migrateBot({
      version: '6',
      groups: [group('1'), group('2'), group('3')],
      events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
      edges: [
        { id: 'a', from: { blockId: 'b1' }, to: { groupId: '2' } },
        { id: 'b', from: { blockId: 'b1' }, to: { groupId: '3' } },
      ],
    })
    assert.deepEqual(
      bot.edges.map((edge) => edge.id),
      ['a']
    )
    assert.equal(blockOf(bot, 'b1').outgoingEdgeId, 'a')
  })

  test('unknown versions and non-objects are refused', ({ assert }) => {
    assert.throws(() => migrateBot({ version: '7', groups: [] }), /Unsupported bot version/)
    assert.throws(() => migrateBot('nope'), TypeError)
    assert.throws(() => migrateBot(null), TypeError)
  })
})
