import { test } from '@japa/runner'
import env from '#start/env'
import { LOOP_ERRORS, messageText, startChat, continueChat } from '#engine/bot/engine'
import type { EngineBot, EnginePorts } from '#engine/bot/ports'
import type { SessionState } from '#engine/bot/state'
import { enginePorts } from '#services/chat/engine_ports'
import { newId } from '#services/ids'
import { LOOP_MESSAGES } from '../../../plugins/loop/runner.js'
import { toEngineBot } from './fixtures.js'

/**
 * The Loop block in the chat engine beyond the chat fixtures (loop_cart.json,
 * loop_count.json): nested loops, the two bounds (one loop's, the turn's) and a loop
 * inside a linked bot's path.
 */

function text(id: string, value: string, outgoingEdgeId?: string) {
  return {
    id,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text: value }] }] },
    ...(outgoingEdgeId ? { outgoingEdgeId } : {}),
  }
}

function loopBlock(id: string, options: Record<string, unknown>, each: string, done?: string) {
  return {
    id,
    type: 'loop',
    options,
    items: [
      { id: `${id}_each`, exit: 'each', outgoingEdgeId: each },
      { id: `${id}_done`, exit: 'done', ...(done ? { outgoingEdgeId: done } : {}) },
      { id: `${id}_break`, exit: 'break' },
    ],
  }
}

function group(id: string, blocks: unknown[]) {
  return { id, title: id, graphCoordinates: { x: 0, y: 0 }, blocks }
}

function edge(id: string, from: Record<string, string>, groupId: string) {
  return { id, from, to: { groupId } }
}

function botOf(groups: unknown[], edges: unknown[], variables: unknown[]): EngineBot {
  return toEngineBot({
    version: '6',
    id: `loopbot${newId()}`,
    name: 'loops',
    groups,
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e_start' },
    ],
    edges: [edge('e_start', { eventId: 'start' }, 'g_start'), ...edges],
    variables,
    theme: {},
    settings: {},
  })
}

/** Rows: for each Row, Cols columns; "r{{Row}}c{{Col}}" each time. */
function nestedBot(times: number) {
  return botOf(
    [
      group('g_start', [
        loopBlock('outer', { mode: 'count', times, indexVariableId: 'v_row' }, 'e_outer'),
        text('t_end', 'End'),
      ]),
      group('g_outer', [
        loopBlock('inner', { mode: 'count', times: 2, indexVariableId: 'v_col' }, 'e_inner'),
      ]),
      group('g_inner', [text('t_cell', 'r{{Row}}c{{Col}}')]),
    ],
    [
      edge('e_outer', { blockId: 'outer', itemId: 'outer_each' }, 'g_outer'),
      edge('e_inner', { blockId: 'inner', itemId: 'inner_each' }, 'g_inner'),
    ],
    [
      { id: 'v_row', name: 'Row' },
      { id: 'v_col', name: 'Col' },
    ]
  )
}

async function portsWith(extra: Partial<EnginePorts> = {}): Promise<EnginePorts> {
  return { ...(await enginePorts()), isAllowed: () => true, ...extra }
}

async function chat(bot: EngineBot, ports: EnginePorts) {
  return startChat(ports, { bot, sessionId: newId(), resultId: newId() })
}

test.group('Chat engine: loops', (suite) => {
  // env.set writes process.env too, where undefined becomes the text "undefined": processes
  // the suite starts later (ace commands) would refuse it.
  suite.each.teardown(() => {
    env.set('LOOP_MAX_ITERATIONS', undefined as any)
    delete process.env.LOOP_MAX_ITERATIONS
  })

  test('nested loops run the inner loop fully at each outer iteration', async ({ assert }) => {
    const output = await chat(nestedBot(2), await portsWith())
    assert.deepEqual(output.reply.messages.map(messageText), [
      'r0c0',
      'r0c1',
      'r1c0',
      'r1c1',
      'End',
    ])
    assert.isTrue(output.state.isCompleted)
    assert.deepEqual(output.state.botsQueue[0].repeats ?? [], [], 'no loop is left running')
  })

  test('a loop longer than the visit bound runs: each iteration counts its visits anew', async ({
    assert,
  }) => {
    // 300 x (loop + 2 x inner loop + 2 bubbles) is well over MAX_BLOCK_VISITS (500).
    const output = await chat(nestedBot(300), await portsWith())
    assert.lengthOf(output.reply.messages, 601)
    assert.equal(messageText(output.reply.messages.at(-1)!), 'End')
    assert.deepEqual(output.effects.logs, [])
  })

  test("the turn's bound stops the flow with an error log", async ({ assert }) => {
    const output = await chat(nestedBot(50), await portsWith({ maxLoopIterations: 7 }))
    // Outer 0 and its 2 inner, outer 1 and its 2 inner, outer 2: 7; its first inner is refused.
    assert.deepEqual(output.reply.messages.map(messageText), ['r0c0', 'r0c1', 'r1c0', 'r1c1'])
    assert.deepEqual(
      output.effects.logs.map((log) => log.description),
      [LOOP_ERRORS.tooManyIterations(7)]
    )
  })

  test('LOOP_MAX_ITERATIONS stops one loop, which leaves through Done', async ({ assert }) => {
    env.set('LOOP_MAX_ITERATIONS', 3 as any)
    const bot = botOf(
      [
        group('g_start', [
          loopBlock(
            'l',
            { mode: 'count', times: 1000, indexVariableId: 'v_i' },
            'e_each',
            'e_done'
          ),
        ]),
        group('g_each', [text('t', '{{I}}')]),
        group('g_done', [text('t_done', 'Done')]),
      ],
      [
        edge('e_each', { blockId: 'l', itemId: 'l_each' }, 'g_each'),
        edge('e_done', { blockId: 'l', itemId: 'l_done' }, 'g_done'),
      ],
      [{ id: 'v_i', name: 'I' }]
    )
    const output = await chat(bot, await portsWith({ maxLoopIterations: 100 }))
    assert.deepEqual(output.reply.messages.map(messageText), ['0', '1', '2', 'Done'])
    assert.deepEqual(
      output.effects.logs.map((log) => log.description),
      [LOOP_MESSAGES.maximum(3)]
    )
  })

  test('an until loop that never ends is stopped by the bound', async ({ assert }) => {
    env.set('LOOP_MAX_ITERATIONS', 20 as any)
    const bot = botOf(
      [
        group('g_start', [
          loopBlock(
            'l',
            { mode: 'until', until: { comparisons: [], logicalOperator: 'AND' } },
            'e'
          ),
          text('t_after', 'After'),
        ]),
        group('g_body', [text('t', 'Again')]),
      ],
      [edge('e', { blockId: 'l', itemId: 'l_each' }, 'g_body')],
      []
    )
    const output = await chat(bot, await portsWith())
    assert.lengthOf(output.reply.messages, 21)
    assert.equal(messageText(output.reply.messages.at(-1)!), 'After')
  })

  test('a loop waiting for an answer keeps its place in the stored session', async ({ assert }) => {
    const bot = botOf(
      [
        group('g_start', [
          loopBlock('l', { mode: 'count', times: 2, indexVariableId: 'v_i' }, 'e'),
          text('t_after', 'Thanks: {{Answer}}'),
        ]),
        group('g_body', [
          text('t_q', 'Question {{I}}'),
          { id: 'ask', type: 'text input', options: { variableId: 'v_a' } },
        ]),
      ],
      [edge('e', { blockId: 'l', itemId: 'l_each' }, 'g_body')],
      [
        { id: 'v_i', name: 'I' },
        { id: 'v_a', name: 'Answer' },
      ]
    )
    const ports = await portsWith()
    const first = await chat(bot, ports)
    assert.deepEqual(first.reply.messages.map(messageText), ['Question 0'])
    const stored = JSON.parse(JSON.stringify(first.state)) as SessionState
    assert.deepEqual(
      stored.botsQueue[0].repeats?.map((frame) => frame.blockId),
      ['l']
    )
    const second = await continueChat(ports, {
      state: stored,
      sessionId: newId(),
      bot,
      message: { text: 'a' },
    })
    assert.deepEqual(second.reply.messages.map(messageText), ['Question 1'])
    const third = await continueChat(ports, {
      state: JSON.parse(JSON.stringify(second.state)),
      sessionId: newId(),
      bot,
      message: { text: 'b' },
    })
    assert.deepEqual(third.reply.messages.map(messageText), ['Thanks: b'])
    assert.isTrue(third.state.isCompleted)
  })
})
