import { test } from '@japa/runner'
import type { Node as FlowNode } from '@xyflow/react'
import { moveGroup } from '#shared/bot/editing'
import {
  blockOfTargetHandle,
  blockTargetHandleId,
  dropEstimatedHandles,
  estimatedHandles,
  reconcileNodes,
  TARGET_HANDLE,
  toFlowEdges,
} from '../../../resources/features/bot_editor/canvas_nodes.js'
import { frozen, pizzaBot } from './fixtures.js'

test.group('Bot editor canvas / nodes and edges for React Flow', () => {
  test('estimated handles give every edge of the bot both of its ends', ({ assert }) => {
    const bot = frozen(pizzaBot())
    const nodes = reconcileNodes([], bot, true)
    const handlesOf = new Map(nodes.map((node) => [node.id, node.handles ?? []]))
    const edges = toFlowEdges(bot.groups, bot.edges, {})
    assert.lengthOf(edges, bot.edges.length)
    for (const edge of edges) {
      const source = handlesOf.get(edge.source)!.find((h) => h.id === edge.sourceHandle)
      const target = handlesOf.get(edge.target)!.find((h) => h.id === edge.targetHandle)
      assert.equal(source?.type, 'source', `${edge.id} source`)
      assert.equal(target?.type, 'target', `${edge.id} target`)
    }
    // The item paths of the AB test block and its blocks' order: lower blocks lower down.
    const welcome = handlesOf.get('g_welcome')!
    const y = (id: string) => welcome.find((handle) => handle.id === id)!.y
    assert.isAbove(y('block:b_size'), y('block:b_welcome'))
    assert.equal(y('item:b_size:i_small'), y('block:b_size'))
  })

  test('an edge into a block ends on that block, or on its group when the block left', ({
    assert,
  }) => {
    const bot = frozen(pizzaBot())
    const group = bot.groups.find((g) => g.blocks.length > 1)!
    const second = group.blocks[1]
    const from = { eventId: bot.events[0].id }
    const into = { id: 'e_into', from, to: { groupId: group.id, blockId: second.id } }
    const stale = { id: 'e_stale', from, to: { groupId: group.id, blockId: 'gone' } }
    const [intoEdge, staleEdge] = toFlowEdges(bot.groups, [into, stale], {})
    assert.equal(intoEdge.targetHandle, blockTargetHandleId(second.id))
    assert.equal(blockOfTargetHandle(intoEdge.targetHandle), second.id)
    assert.equal(staleEdge.targetHandle, TARGET_HANDLE)
    assert.isUndefined(blockOfTargetHandle(TARGET_HANDLE))
    // Large bots: the estimate has that end too.
    const handles = estimatedHandles(group, 'botGroup')
    assert.equal(
      handles.find((handle) => handle.id === blockTargetHandleId(second.id))?.type,
      'target'
    )
  })

  test('nodes carry size hints, and estimated handles only when asked (large bots)', ({
    assert,
  }) => {
    const bot = frozen(pizzaBot())
    const small = reconcileNodes([], bot)
    assert.isTrue(small.every((node) => node.handles === undefined))
    const large = reconcileNodes([], bot, true)
    assert.isTrue(large.every((node) => (node.handles?.length ?? 0) > 0))
    const welcome = large.find((node) => node.id === 'g_welcome')!
    assert.equal(welcome.type, 'botGroup')
    assert.isAbove(welcome.initialHeight!, large.find((n) => n.id === 'g_check')!.initialHeight!)
    assert.deepEqual(
      estimatedHandles({ id: 'g', graphCoordinates: { x: 0, y: 0 }, blocks: [] }, 'botGroup').map(
        (handle) => handle.id
      ),
      [TARGET_HANDLE]
    )
  })

  test('an unchanged bot keeps the same node array; a moved group alone is replaced', ({
    assert,
  }) => {
    const bot = frozen(pizzaBot())
    const first = reconcileNodes([], bot, true)
    assert.strictEqual(reconcileNodes(first, bot, true), first)

    const moved = moveGroup(bot, 'g_check', { x: 999.123, y: 5 })
    const next = reconcileNodes(first, moved, true)
    assert.notStrictEqual(next, first)
    for (const [i, node] of next.entries()) {
      if (node.id === 'g_check') {
        assert.notStrictEqual(node, first[i])
        assert.deepEqual(node.position, { x: 999.12, y: 5 })
      } else assert.strictEqual(node, first[i])
    }
  })

  test('a measured node loses its estimate, and keeps it lost through later moves', ({
    assert,
  }) => {
    const bot = frozen(pizzaBot())
    const nodes = reconcileNodes([], bot, true)
    assert.strictEqual(dropEstimatedHandles(nodes, new Set()), nodes)
    const measured = nodes.map((node): FlowNode => ({
      ...node,
      measured: { width: 288, height: 120 },
    }))
    const dropped = dropEstimatedHandles(measured, new Set(['g_welcome']))
    const welcome = dropped.find((node) => node.id === 'g_welcome')!
    assert.notProperty(welcome, 'handles')
    assert.deepEqual(welcome.measured, { width: 288, height: 120 })
    assert.isDefined(dropped.find((node) => node.id === 'g_check')!.handles)

    const after = reconcileNodes(dropped, moveGroup(bot, 'g_welcome', { x: 1, y: 2 }), true)
    assert.notProperty(
      after.find((node) => node.id === 'g_welcome')!,
      'handles'
    )
  })

  test('edges: item and block sources, selection, an edge from an unknown block dropped', ({
    assert,
  }) => {
    const bot = frozen(pizzaBot())
    const edges = toFlowEdges(
      bot.groups,
      [...bot.edges, { id: 'e_lost', from: { blockId: 'nope' }, to: { groupId: 'g_end' } }],
      { e_small: true }
    )
    assert.notInclude(
      edges.map((edge) => edge.id),
      'e_lost'
    )
    const small = edges.find((edge) => edge.id === 'e_small')!
    assert.include(small, {
      source: 'g_welcome',
      sourceHandle: 'item:b_size:i_small',
      target: 'g_check',
      selected: true,
    })
    const event = edges.find((edge) => edge.id === 'e_event')!
    assert.include(event, { source: 'ev_start', sourceHandle: 'event', selected: false })
    assert.equal(edges.find((edge) => edge.id === 'e_else')!.sourceHandle, 'block:b_condition')
  })
})
