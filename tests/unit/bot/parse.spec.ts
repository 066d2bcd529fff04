import { test } from '@japa/runner'
import { BotParseError, importBot, repairVariableNames, validateBot } from '#shared/bot/parse'
import { createBotContent } from '#shared/bot/new_bot'
import { blockOf, fixture, fixtureText, pizzaBot } from './fixtures.js'

const MESSAGE = "Failed to parse the file. Are you sure it's a bot?"

function parseErrorOf(raw: unknown) {
  try {
    importBot(raw)
  } catch (error) {
    return error
  }
  return undefined
}

test.group('importBot', () => {
  test('accepts a bot object, its JSON text, and both wrapped', ({ assert }) => {
    const expected = importBot(fixture('v6_full'))
    assert.deepEqual(importBot(fixtureText('v6_full')), expected)
    assert.deepEqual(importBot({ typebot: fixture('v6_full') }), expected)
    assert.deepEqual(importBot({ bot: fixture('v6_full') }), expected)
    assert.deepEqual(importBot(JSON.stringify({ typebot: fixture('v6_full') })), expected)
  })

  test('migrates older files', ({ assert }) => {
    const bot = importBot(fixtureText('v3_start_group'))
    assert.equal(bot.version, '6')
    assert.equal(bot.events[0].outgoingEdgeId, 'e_start')
    assert.equal(importBot(fixture('v5_bot')).version, '6')
  })

  test('refuses what is not a bot with the message builders read', ({ assert }) => {
    const notBots: unknown[] = [
      fixture('not_a_bot'),
      fixtureText('not_a_bot'),
      '{ not json',
      '',
      'null',
      42,
      null,
      undefined,
      [],
      { groups: 'nope' },
      { groups: [null] },
      { groups: [{ title: 'no id' }] },
      { groups: [{ id: 'g', blocks: 'nope' }] },
      { groups: [{ id: 'g', blocks: [{ id: 'b' }] }] },
      { groups: [], edges: {} },
      { groups: [], variables: 'x' },
      { groups: [], version: '7' },
      { typebot: 'string' },
    ]
    for (const raw of notBots) {
      const error = parseErrorOf(raw)
      assert.instanceOf(error, BotParseError, JSON.stringify(raw))
      assert.equal((error as Error).message, MESSAGE)
    }
  })

  test('the error is a plain Error subclass the server can map to 400', ({ assert }) => {
    const error = new BotParseError()
    assert.instanceOf(error, Error)
    assert.equal(error.name, 'BotParseError')
    assert.equal(error.status, 400)
  })

  test('the minimum accepted: an object with a groups list', ({ assert }) => {
    const bot = importBot({ groups: [] })
    assert.equal(bot.version, '6')
    assert.equal(bot.name, 'My bot')
    assert.lengthOf(bot.events, 1)
  })

  test('variable names other tools allow are repaired and references rewritten', ({ assert }) => {
    const bot = importBot({
      version: '6',
      groups: [
        {
          id: 'g',
          title: 'G',
          graphCoordinates: { x: 0, y: 0 },
          blocks: [{ id: 'b', type: 'text', content: { plainText: 'Age: {{Age?}} / {{Age}}' } }],
        },
      ],
      variables: [
        { id: 'v1', name: 'Age?' },
        { id: 'v2', name: 'Age' },
        { id: 'v3', name: '???' },
      ],
    })
    assert.deepEqual(
      bot.variables.map((variable) => variable.name),
      ['Age 2', 'Age', 'Variable']
    )
    assert.equal(blockOf(bot, 'b').content!.plainText, 'Age: {{Age 2}} / {{Age}}')
    assert.isTrue(validateBot(bot).ok)
  })

  test('valid variable names leave the bot untouched', ({ assert }) => {
    const bot = pizzaBot()
    assert.strictEqual(repairVariableNames(bot), bot)
  })
})

test.group('validateBot', () => {
  test('accepts a new bot and the v6 fixture', ({ assert }) => {
    assert.isTrue(validateBot(createBotContent()).ok)
    const result = validateBot(pizzaBot())
    assert.isTrue(result.ok, JSON.stringify(result))
  })

  test('rounds coordinates to 2 decimals on success', ({ assert }) => {
    const bot = importBot(fixture('v5_bot'))
    const result = validateBot(bot)
    assert.isTrue(result.ok)
    if (!result.ok) return
    const rate = result.bot.groups.find((group) => group.id === 'g_rate')!
    assert.deepEqual(rate.graphCoordinates, { x: 400.12, y: 120.99 })
    // The input is left as it was.
    assert.equal(bot.groups.find((group) => group.id === 'g_rate')!.graphCoordinates.x, 400.123)
  })

  function errorsOf(mutate: (bot: any) => void) {
    const bot: any = structuredClone(pizzaBot())
    mutate(bot)
    const result = validateBot(bot)
    return result.ok ? [] : result.errors
  }

  test('reports a non-object and missing lists', ({ assert }) => {
    assert.deepEqual(validateBot('x'), {
      ok: false,
      errors: [{ path: '', message: 'Bot content must be an object' }],
    })
    const errors = errorsOf((bot) => {
      delete bot.edges
      bot.version = '5'
      bot.theme = null
    })
    assert.deepEqual(
      errors.map((error) => error.path),
      ['version', 'edges', 'theme']
    )
  })

  test('reports ids used twice, across kinds', ({ assert }) => {
    const errors = errorsOf((bot) => {
      bot.groups[1].blocks[0].id = 'b_welcome'
      bot.variables[0].id = 'g_welcome'
    })
    assert.deepInclude(errors, {
      path: 'groups.1.blocks.0.id',
      message: 'Id "b_welcome" is already used at groups.0.blocks.0',
    })
    assert.deepInclude(errors, {
      path: 'variables.0.id',
      message: 'Id "g_welcome" is already used at groups.0',
    })
  })

  test('reports edges to or from missing things', ({ assert }) => {
    const errors = errorsOf((bot) => {
      bot.edges.push(
        { id: 'x1', from: { eventId: 'nope' }, to: { groupId: 'g_end' } },
        { id: 'x2', from: { blockId: 'nope' }, to: { groupId: 'g_end' } },
        { id: 'x3', from: { blockId: 'b_end', itemId: 'nope' }, to: { groupId: 'g_end' } },
        { id: 'x4', from: { blockId: 'b_set' }, to: { groupId: 'nope' } },
        { id: 'x5', from: { blockId: 'b_welcome' }, to: { groupId: 'g_end', blockId: 'b_size' } }
      )
    })
    assert.includeMembers(
      errors.map((error) => error.path),
      [
        'edges.6.from.eventId',
        'edges.7.from.blockId',
        'edges.8.from.itemId',
        'edges.9.to.groupId',
        'edges.10.to.blockId',
      ]
    )
  })

  test('reports an outgoingEdgeId naming no edge of that source, and a second edge', ({
    assert,
  }) => {
    const errors = errorsOf((bot) => {
      bot.groups[3].blocks[1].outgoingEdgeId = 'e_else'
      bot.edges.push({ id: 'dup', from: { blockId: 'b_size' }, to: { groupId: 'g_end' } })
    })
    assert.deepInclude(errors, {
      path: 'groups.3.blocks.1.outgoingEdgeId',
      message: 'No edge "e_else" leaves from here',
    })
    assert.deepInclude(errors, { path: 'edges.6.from', message: 'This source already has an edge' })
  })

  test('reports block types, titles and coordinates', ({ assert }) => {
    const errors = errorsOf((bot) => {
      bot.groups[0].blocks[0].type = ''
      delete bot.groups[1].blocks[0].type
      bot.groups[2].title = 3
      bot.groups[3].graphCoordinates.x = Number.NaN
      bot.events[0].graphCoordinates.y = '10'
    })
    assert.deepEqual(
      errors.map((error) => error.path),
      [
        'groups.0.blocks.0.type',
        'groups.1.blocks.0.type',
        'groups.2.title',
        'groups.3.graphCoordinates.x',
        'events.0.graphCoordinates.y',
      ]
    )
  })

  test('reports variable names breaking the rule', ({ assert }) => {
    const errors = errorsOf((bot) => {
      bot.variables[0].name = 'Size!'
      bot.variables[1].name = '   '
      bot.variables[2].name = 'a'.repeat(256)
      bot.variables.push({ id: 'v4', name: 'ok_name - 2 Prénom' })
    })
    assert.deepEqual(
      errors.map((error) => error.path),
      ['variables.0.name', 'variables.1.name', 'variables.2.name']
    )
  })

  test('requires exactly one start event', ({ assert }) => {
    const none = errorsOf((bot) => {
      bot.events = []
      bot.edges = bot.edges.filter((edge: any) => !edge.from.eventId)
    })
    assert.deepEqual(none, [
      { path: 'events', message: 'A bot needs exactly one start event (found 0)' },
    ])
    const two = errorsOf((bot) => {
      bot.events.push({ id: 'ev2', type: 'start', graphCoordinates: { x: 0, y: 0 } })
    })
    assert.deepEqual(two, [
      { path: 'events', message: 'A bot needs exactly one start event (found 2)' },
    ])
  })
})
