import { test } from '@japa/runner'
import { changedFields, diffBots, diffWorkflows, sameJson, unionById } from '#shared/history/diff'
import type { WorkflowSnapshot } from '#shared/workflow/types'
import type { BotSnapshot } from '#shared/bot/types'

const at = { x: 0, y: 0 }

function workflow(): WorkflowSnapshot {
  return {
    name: 'Orders',
    blocks: [
      { id: 'trigger', type: 'webhook-trigger', graphCoordinates: at, options: { method: 'POST' } },
      {
        id: 'calc',
        type: 'workflow-script',
        title: 'Compute',
        graphCoordinates: { x: 300, y: 0 },
        options: { code: 'return 1', timeout: 5 },
      },
      { id: 'send', type: 'send-email', graphCoordinates: { x: 600, y: 0 } },
    ],
    edges: [
      { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'calc' } },
      { id: 'e2', from: { blockId: 'calc' }, to: { blockId: 'send' } },
    ],
    variables: [{ id: 'v1', name: 'total' }],
    settings: {},
  }
}

function bot(): BotSnapshot {
  return {
    name: 'Greeter',
    events: [{ id: 'start', type: 'start', graphCoordinates: at, outgoingEdgeId: 'e0' }],
    groups: [
      {
        id: 'g1',
        title: 'Hello',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [
          { id: 'b1', type: 'text', content: { richText: [{ text: 'Hi' }] } } as any,
          { id: 'b2', type: 'text input', options: { variableId: 'v1' } } as any,
        ],
      },
      { id: 'g2', title: 'Bye', graphCoordinates: { x: 600, y: 0 }, blocks: [] },
    ],
    edges: [{ id: 'e0', from: { eventId: 'start' } as any, to: { groupId: 'g1' } }],
    variables: [{ id: 'v1', name: 'Name' }],
    theme: {},
    settings: {},
  }
}

test.group('History diff', () => {
  test('same versions: nothing changed, whatever the key order', ({ assert }) => {
    const a = workflow()
    const b = workflow()
    b.blocks[1] = Object.fromEntries(Object.entries(b.blocks[1]).reverse()) as any
    const diff = diffWorkflows(a, b)
    assert.deepEqual(diff.changes, [])
    assert.deepEqual(diff.byId, {})
    assert.deepEqual(diff.fields, [])
    assert.isTrue(sameJson({ a: 1, b: undefined }, { a: 1 }))
    assert.isFalse(sameJson([1, 2], [2, 1]))
  })

  test('workflows: added, removed and changed nodes and edges, with the changed fields', ({
    assert,
  }) => {
    const before = workflow()
    const after = workflow()
    after.blocks[1].options = { code: 'return 2', timeout: 5 }
    after.blocks[1].graphCoordinates = { x: 320, y: 40 }
    after.blocks = after.blocks.filter((node) => node.id !== 'send')
    after.blocks.push({ id: 'reply', type: 'respond-to-webhook', graphCoordinates: at })
    after.edges = [
      after.edges[0],
      { id: 'e3', from: { blockId: 'calc' }, to: { blockId: 'reply' } },
    ]
    after.variables[0].name = 'sum'
    after.name = 'Orders v2'

    const diff = diffWorkflows(before, after)
    assert.deepEqual(
      diff.changes.map((change) => [change.kind, change.type, change.id, change.fields]),
      [
        ['changed', 'node', 'calc', ['graphCoordinates', 'options.code']],
        ['added', 'node', 'reply', []],
        ['removed', 'node', 'send', []],
        ['added', 'edge', 'e3', []],
        ['removed', 'edge', 'e2', []],
        ['changed', 'variable', 'v1', ['name']],
      ]
    )
    assert.equal(diff.changes[0].label, 'Compute')
    assert.equal(diff.changes[0].pluginType, 'workflow-script')
    // What each changed field held before and after, for the history panel to show.
    assert.deepEqual(diff.changes[0].values!['options.code'], {
      before: workflow().blocks[1].options!.code,
      after: 'return 2',
    })
    assert.deepEqual(diff.changes[5].values, {
      name: { before: workflow().variables[0].name, after: 'sum' },
    })
    assert.equal(diff.changes[2].label, 'send-email')
    assert.equal(diff.changes[3].label, 'calc → reply')
    assert.deepEqual(diff.byId, {
      calc: 'changed',
      reply: 'added',
      send: 'removed',
      e3: 'added',
      e2: 'removed',
      v1: 'changed',
    })
    assert.deepEqual(diff.fields, ['name'])
  })

  test('a node disabled or its options emptied is a change of those fields', ({ assert }) => {
    const before = workflow()
    const after = workflow()
    after.blocks[2].isDisabled = true
    delete after.blocks[1].options
    const diff = diffWorkflows(before, after)
    assert.deepEqual(
      diff.changes.map((change) => [change.id, change.fields]),
      [
        ['calc', ['options.code', 'options.timeout']],
        ['send', ['isDisabled']],
      ]
    )
  })

  test('bots: groups, blocks (with their group), events and edges', ({ assert }) => {
    const before = bot()
    const after = bot()
    after.groups[0].title = 'Welcome'
    after.groups[0].blocks[0] = {
      id: 'b1',
      type: 'text',
      content: { richText: [{ text: 'Hello!' }] },
    } as any
    // b2 moves to the second group; the first group's block list is no field of its own.
    after.groups[1].blocks.push(after.groups[0].blocks.pop()!)
    after.groups.push({ id: 'g3', title: 'New', graphCoordinates: at, blocks: [] })
    after.edges.push({
      id: 'e9',
      from: { blockId: 'b1', groupId: 'g1' } as any,
      to: { groupId: 'g3' },
    })
    after.events[0].graphCoordinates = { x: -10, y: 0 }
    after.theme = { general: { font: 'Inter' } } as any

    const diff = diffBots(before, after)
    assert.deepEqual(
      diff.changes.map((change) => [change.kind, change.type, change.id, change.fields]),
      [
        ['changed', 'group', 'g1', ['title']],
        ['added', 'group', 'g3', []],
        ['changed', 'block', 'b1', ['content.richText']],
        ['changed', 'block', 'b2', ['groupId']],
        ['changed', 'event', 'start', ['graphCoordinates']],
        ['added', 'edge', 'e9', []],
      ]
    )
    assert.equal(diff.changes.find((change) => change.id === 'b2')!.groupId, 'g2')
    assert.equal(diff.changes[0].label, 'Welcome')
    assert.equal(diff.changes[5].label, 'b1 → g3')
    assert.deepEqual(diff.fields, ['theme'])
  })

  test('bots: a removed group and its blocks are removed', ({ assert }) => {
    const before = bot()
    const after = bot()
    after.groups = after.groups.slice(1)
    after.edges = []
    const diff = diffBots(before, after)
    assert.deepEqual(
      diff.changes.map((change) => [change.kind, change.id, change.groupId]),
      [
        ['removed', 'g1', undefined],
        ['removed', 'b1', 'g1'],
        ['removed', 'b2', 'g1'],
        ['removed', 'e0', undefined],
      ]
    )
  })

  test('changedFields looks one level into options and content only', ({ assert }) => {
    assert.deepEqual(
      changedFields(
        { options: { a: 1, deep: { x: 1 } }, title: 't', other: { a: 1 } },
        { options: { a: 2, deep: { x: 2 } }, title: 't', other: { a: 2 } }
      ),
      ['options.a', 'options.deep', 'other']
    )
    assert.deepEqual(changedFields({ a: 1, b: 2 }, { a: 2, b: 3 }, ['b']), ['a'])
  })

  test('unionById: the newer items, then those only the older version had', ({ assert }) => {
    assert.deepEqual(
      unionById([{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ id: 'c' }, { id: 'd' }]).map(
        (item) => item.id
      ),
      ['c', 'd', 'a', 'b']
    )
  })
})
