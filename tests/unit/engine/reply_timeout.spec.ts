import { test } from '@japa/runner'
import { continueChat, startChat, timeoutChat, messageText } from '#engine/bot/engine'
import type { EngineBot, EnginePorts } from '#engine/bot/ports'
import type { BotCategory } from '#plugins/define_plugin'
import { migrateBot } from '#shared/bot/migrate'
import { connect, deleteEdge, setBlockTimeout } from '#shared/bot/editing'
import { validateBot } from '#shared/bot/parse'
import type { BotV6 } from '#shared/bot/types'
import { startReplyTimer, type WakeSource } from '../../../resources/features/viewer/reply_timer.js'

/**
 * Reply timeouts (docs/bots.md, "Reply timeout"): an input block's `timeout` asks the
 * question with a deadline; past it, timeoutChat takes the block's "No reply" exit and
 * records the timeout for the result. Tiny ports: text bubbles and a text input that
 * refuses "bad".
 */

const CATEGORIES: Record<string, BotCategory> = { 'text': 'bubble', 'text input': 'input' }

function ports(): EnginePorts {
  let n = 0
  return {
    appUrl: 'http://localhost',
    newId: () => `id${++n}`,
    categoryOf: (type) => CATEGORIES[type],
    showsStreamedText: () => false,
    isAllowed: () => true,
    async runBlock({ block }) {
      const result =
        block.type === 'text'
          ? {
              messages: [
                {
                  id: block.id,
                  type: 'text',
                  content: { type: 'markdown', markdown: String((block.content as any).plainText) },
                },
              ],
            }
          : undefined
      return { result, options: block.options ?? {}, logs: [], variablesSet: [] }
    },
    async parseAnswer({ answer }) {
      return answer.text === 'bad'
        ? { parsed: { status: 'fail' }, logs: [] }
        : { parsed: { status: 'success', value: answer.text }, logs: [] }
    },
    loadBot: async () => undefined,
  } as EnginePorts
}

function content(withTimeoutEdge = true): BotV6 {
  return migrateBot({
    version: '6',
    id: 'bot1',
    name: 'Timeout',
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          { id: 'hello', type: 'text', content: { plainText: 'What is your name?' } },
          {
            id: 'name',
            type: 'text input',
            options: {},
            outgoingEdgeId: 'e1',
            timeout: { seconds: 60, ...(withTimeoutEdge ? { outgoingEdgeId: 'e2' } : {}) },
          },
        ],
      },
      {
        id: 'g2',
        title: 'Thanks',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [{ id: 'thanks', type: 'text', content: { plainText: 'Thanks' } }],
      },
      {
        id: 'g3',
        title: 'No reply',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          { id: 'nudge', type: 'text', content: { plainText: 'Still there?' } },
          { id: 'again', type: 'text input', options: {} },
        ],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'e1', from: { blockId: 'name' }, to: { groupId: 'g2' } },
      ...(withTimeoutEdge
        ? [{ id: 'e2', from: { blockId: 'name', timeout: true }, to: { groupId: 'g3' } }]
        : []),
    ],
    variables: [],
    theme: {},
    settings: {},
  }) as BotV6
}

function bot(withTimeoutEdge = true): EngineBot {
  return {
    id: 'bot1',
    workspaceId: 'ws',
    publishedAt: '2026-01-01',
    content: content(withTimeoutEdge),
  }
}

const T0 = Date.UTC(2026, 0, 1, 12)

async function started(engineBot = bot()) {
  const p = ports()
  const first = await startChat(p, { bot: engineBot, sessionId: 's1', resultId: 'r1', now: T0 })
  return { p, first }
}

test.group('Reply timeout: engine', () => {
  test('the question carries its timeout and the session its deadline', async ({ assert }) => {
    const { first } = await started()
    assert.deepEqual(first.reply.input?.timeout, { seconds: 60 })
    assert.deepEqual(first.state.awaiting?.timeout, { seconds: 60, deadline: T0 + 60_000 })
  })

  test('before the deadline nothing changes', async ({ assert }) => {
    const { p, first } = await started()
    const { status, output } = await timeoutChat(p, {
      state: first.state,
      sessionId: 's1',
      bot: bot(),
      now: T0 + 59_000,
    })
    assert.deepEqual(status, { status: 'early', remainingMs: 1000 })
    assert.deepEqual(output.reply.messages, [])
    assert.equal(output.state.awaiting?.blockId, 'name')
    assert.deepEqual(output.effects.timeouts, [])
  })

  test('past the deadline the "No reply" path runs and is recorded', async ({ assert }) => {
    const { p, first } = await started()
    const { status, output } = await timeoutChat(p, {
      state: first.state,
      sessionId: 's1',
      bot: bot(),
      expected: { blockId: 'name' },
      now: T0 + 60_000,
    })
    assert.deepEqual(status, { status: 'taken' })
    assert.deepEqual(output.reply.messages.map(messageText), ['Still there?'])
    assert.equal(output.reply.input?.id, 'again')
    assert.isUndefined(output.reply.input?.timeout)
    assert.deepEqual(output.effects.timeouts, [{ resultId: 'r1', blockId: 'name', groupId: 'g1' }])
    assert.match(output.effects.logs[0].description, /No reply within 60 s/)
    assert.isFalse(Boolean(output.state.isCompleted))
  })

  test('an answer in time wins: the late timer is stale', async ({ assert }) => {
    const { p, first } = await started()
    const answered = await continueChat(p, {
      state: first.state,
      sessionId: 's1',
      bot: bot(),
      message: { text: 'Ada' },
      now: T0 + 10_000,
    })
    assert.deepEqual(answered.reply.messages.map(messageText), ['Thanks'])
    const { status, output } = await timeoutChat(p, {
      state: answered.state,
      sessionId: 's1',
      bot: bot(),
      expected: { blockId: 'name' },
      now: T0 + 61_000,
    })
    assert.deepEqual(status, { status: 'stale' })
    assert.deepEqual(output.effects.timeouts, [])
  })

  test('a timer set for another question, or another asking, is stale', async ({ assert }) => {
    const { p, first } = await started()
    const other = await timeoutChat(p, {
      state: structuredClone(first.state),
      sessionId: 's1',
      bot: bot(),
      expected: { blockId: 'again' },
      now: T0 + 70_000,
    })
    assert.deepEqual(other.status, { status: 'stale' })
    const earlierAsking = await timeoutChat(p, {
      state: structuredClone(first.state),
      sessionId: 's1',
      bot: bot(),
      expected: { blockId: 'name', deadline: T0 },
      now: T0 + 70_000,
    })
    assert.deepEqual(earlierAsking.status, { status: 'stale' })
  })

  test('a refused answer starts the timeout again', async ({ assert }) => {
    const { p, first } = await started()
    const retried = await continueChat(p, {
      state: first.state,
      sessionId: 's1',
      bot: bot(),
      message: { text: 'bad' },
      now: T0 + 30_000,
    })
    assert.equal(retried.state.awaiting?.timeout?.deadline, T0 + 90_000)
    const early = await timeoutChat(p, {
      state: retried.state,
      sessionId: 's1',
      bot: bot(),
      now: T0 + 60_000,
    })
    assert.equal(early.status.status, 'early')
  })

  test('without a "No reply" edge the chat ends there', async ({ assert }) => {
    const { p, first } = await started(bot(false))
    const { status, output } = await timeoutChat(p, {
      state: first.state,
      sessionId: 's1',
      bot: bot(false),
      now: T0 + 60_000,
    })
    assert.deepEqual(status, { status: 'taken' })
    assert.deepEqual(output.reply.messages, [])
    assert.isUndefined(output.reply.input)
    assert.isTrue(output.state.isCompleted)
    assert.lengthOf(output.effects.timeouts, 1)
  })
})

test.group('Reply timeout: bot format', () => {
  test('the "No reply" edge validates, and goes with the timeout', ({ assert }) => {
    const withEdge = content()
    assert.isTrue(validateBot(withEdge).ok)
    const removed = setBlockTimeout(withEdge, 'name', null)
    assert.notExists(removed.edges.find((edge) => edge.id === 'e2'))
    assert.isUndefined(removed.groups[0].blocks[1].timeout)
    assert.isTrue(validateBot(removed).ok)
  })

  test('connecting the exit names the edge on the block; deleting it clears it', ({ assert }) => {
    const bare = content(false)
    const joined = connect(bare, { blockId: 'name', timeout: true }, { groupId: 'g3' }, 'eNew')
    assert.equal(joined.groups[0].blocks[1].timeout?.outgoingEdgeId, 'eNew')
    // The block's own exit is untouched.
    assert.equal(joined.groups[0].blocks[1].outgoingEdgeId, 'e1')
    assert.isTrue(validateBot(joined).ok)
    const cut = deleteEdge(joined, 'eNew')
    assert.isUndefined(cut.groups[0].blocks[1].timeout?.outgoingEdgeId)
    assert.equal(cut.groups[0].blocks[1].timeout?.seconds, 60)
  })

  test('a block without a timeout has no "No reply" exit', ({ assert }) => {
    const bare = setBlockTimeout(content(), 'name', null)
    const refused = connect(bare, { blockId: 'name', timeout: true }, { groupId: 'g3' }, 'x')
    assert.strictEqual(refused, bare)
    const invalid = structuredClone(content()) as any
    invalid.groups[0].blocks[1].timeout.seconds = 0
    const result = validateBot(invalid)
    assert.isFalse(result.ok)
  })

  test('seconds are clamped to the bounds', ({ assert }) => {
    const long = setBlockTimeout(content(), 'name', 10 ** 9)
    assert.equal(long.groups[0].blocks[1].timeout?.seconds, 7 * 24 * 3600)
    assert.equal(long.groups[0].blocks[1].timeout?.outgoingEdgeId, 'e2')
  })
})

/** A clock whose timers run only when told: a sleeping tab runs none of them. */
function fakeClock(start: number) {
  let now = start
  const timers = new Map<number, { at: number; run: () => void }>()
  let next = 0
  return {
    now: () => now,
    setTimeout: (run: () => void, ms: number) => {
      timers.set(++next, { at: now + ms, run })
      return next
    },
    clearTimeout: (handle: unknown) => void timers.delete(handle as number),
    /** Time passes; due timers fire unless the tab sleeps. */
    advance(ms: number, sleeping = false) {
      now += ms
      if (sleeping) return
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now && timers.has(id)) {
          timers.delete(id)
          timer.run()
        }
      }
    },
  }
}

function fakeWake() {
  const listeners = new Map<string, Set<() => void>>()
  const source: WakeSource & { fire(type: string): void; count(): number } = {
    addEventListener: (type, listener) => {
      if (!listeners.has(type)) listeners.set(type, new Set())
      listeners.get(type)!.add(listener)
    },
    removeEventListener: (type, listener) => void listeners.get(type)?.delete(listener),
    fire: (type) => [...(listeners.get(type) ?? [])].forEach((listener) => listener()),
    count: () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0),
  }
  return source
}

test.group('Reply timeout: the viewer timer', () => {
  test('fires once at the deadline', ({ assert }) => {
    const clock = fakeClock(0)
    const wake = fakeWake()
    let fired = 0
    startReplyTimer(2, () => fired++, { clock, wake: [wake] })
    clock.advance(1999)
    assert.equal(fired, 0)
    clock.advance(1)
    assert.equal(fired, 1)
    wake.fire('visibilitychange')
    clock.advance(10_000)
    assert.equal(fired, 1)
    assert.equal(wake.count(), 0)
  })

  test('a sleeping tab fires when it wakes past the deadline, not before', ({ assert }) => {
    const clock = fakeClock(0)
    const wake = fakeWake()
    let fired = 0
    startReplyTimer(60, () => fired++, { clock, wake: [wake] })
    clock.advance(30_000, true)
    wake.fire('visibilitychange')
    assert.equal(fired, 0)
    clock.advance(3_600_000, true)
    assert.equal(fired, 0)
    wake.fire('focus')
    assert.equal(fired, 1)
  })

  test('stopped (an answer sent) it never fires', ({ assert }) => {
    const clock = fakeClock(0)
    const wake = fakeWake()
    let fired = 0
    const stop = startReplyTimer(5, () => fired++, { clock, wake: [wake] })
    clock.advance(4000)
    stop()
    clock.advance(5000)
    wake.fire('pageshow')
    assert.equal(fired, 0)
    assert.equal(wake.count(), 0)
  })
})
