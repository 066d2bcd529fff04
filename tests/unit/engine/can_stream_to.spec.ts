import { test } from '@japa/runner'
import { continueChat, startChat } from '#engine/bot/engine'
import type { EngineBot, EnginePorts } from '#engine/bot/ports'
import { upgradeState } from '#engine/bot/state'
import { streamReply, type BotCategory } from '#plugins/define_plugin'
import { migrateBot } from '#shared/bot/migrate'

/**
 * BotRunContext.canStreamTo: a block may stream its answer only when the client asked for
 * streaming and the block that runs next is a text bubble showing the variable it fills.
 * The engine runs a `probe` block whose runner records what canStreamTo says.
 */

const CATEGORIES: Record<string, BotCategory> = {
  'probe': 'integration',
  'text': 'bubble',
  'image': 'bubble',
  'text input': 'input',
}

interface ProbeRun {
  answers: Record<string, boolean>
}

/** Ports with tiny runners: `probe` asks canStreamTo for each variable and streams to `v1`. */
function portsFor(runs: ProbeRun[], options: { stream?: boolean } = {}): EnginePorts {
  return {
    appUrl: 'http://localhost',
    newId: (() => {
      let n = 0
      return () => `id${++n}`
    })(),
    categoryOf: (type) => CATEGORIES[type],
    showsStreamedText: (type) => type === 'text',
    isAllowed: () => true,
    async runBlock({ block, context, variables: current }) {
      if (block.type === 'probe') {
        const answers: Record<string, boolean> = {}
        for (const id of ['v1', 'v2', 'missing']) answers[id] = context.canStreamTo!(id)
        runs.push({ answers })
        if (options.stream && answers.v1) return { result: streamReply('v1'), ...empty() }
        return { result: { variablesToSet: [{ id: 'v1', value: 'plain answer' }] }, ...empty() }
      }
      if (block.type === 'text') {
        // Substituted like the real text runner's options.
        const markdown = String((block.content as any)?.plainText ?? '').replace(
          /\{\{(\w+)\}\}/g,
          (_, name) => String(current.find((v) => v.name === name)?.value ?? '')
        )
        return {
          result: {
            messages: [{ id: block.id, type: 'text', content: { type: 'markdown', markdown } }],
          },
          ...empty(),
        }
      }
      return { result: undefined, ...empty() }
    },
    async parseAnswer({ answer }) {
      return { parsed: { status: 'success', value: answer.text }, logs: [] }
    },
    loadBot: async () => undefined,
  }
}

function empty() {
  return { options: {}, logs: [], variablesSet: [] }
}

const variables = [
  { id: 'v1', name: 'Answer' },
  { id: 'v2', name: 'Other' },
]

function text(id: string, plainText: string) {
  return { id, type: 'text', content: { plainText } }
}

function richText(id: string, line: string) {
  return { id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: line }] }] } }
}

/** A bot whose start group holds `first` blocks; `second` is a group reached by an edge. */
function botWith(first: any[], second?: any[], edgeFromProbe = false): EngineBot {
  const groups: any[] = [
    { id: 'g1', title: 'Group #1', graphCoordinates: { x: 0, y: 0 }, blocks: first },
  ]
  const edges: any[] = [{ id: 'start-edge', from: { eventId: 'start' }, to: { groupId: 'g1' } }]
  if (second) {
    groups.push({ id: 'g2', title: 'Group #2', graphCoordinates: { x: 0, y: 0 }, blocks: second })
    if (edgeFromProbe) {
      edges.push({ id: 'e1', from: { blockId: 'probe' }, to: { groupId: 'g2' } })
      first.find((b) => b.id === 'probe').outgoingEdgeId = 'e1'
    }
  }
  const raw = {
    version: '6',
    id: 'bot1',
    name: 'Streaming',
    events: [
      {
        id: 'start',
        type: 'start',
        graphCoordinates: { x: 0, y: 0 },
        outgoingEdgeId: 'start-edge',
      },
    ],
    groups,
    edges,
    variables,
    theme: {},
    settings: {},
  }
  return { id: 'bot1', workspaceId: 'ws', publishedAt: 'now', content: migrateBot(raw) }
}

async function probe(bot: EngineBot, isStreamEnabled = true) {
  const runs: ProbeRun[] = []
  await startChat(portsFor(runs), { bot, sessionId: 's1', isStreamEnabled })
  return runs[0].answers
}

test.group('Chat engine: canStreamTo', () => {
  test('true for the variable shown by the next text bubble of the group', async ({ assert }) => {
    const answers = await probe(
      botWith([{ id: 'probe', type: 'probe' }, text('t1', 'Here it is: {{Answer}}')])
    )
    assert.deepEqual(answers, { v1: true, v2: false, missing: false })
  })

  test('rich text bubbles and spaces inside the braces count', async ({ assert }) => {
    const answers = await probe(
      botWith([{ id: 'probe', type: 'probe' }, richText('t1', '{{ Answer }}')])
    )
    assert.isTrue(answers.v1)
  })

  test('across an edge: the first block of the group the last block leads to', async ({
    assert,
  }) => {
    const bot = botWith(
      [{ id: 'probe', type: 'probe' }],
      [text('t2', '{{Answer}}'), { id: 'ask', type: 'text input', options: {} }],
      true
    )
    assert.deepEqual(await probe(bot), { v1: true, v2: false, missing: false })
  })

  test('false when the next block is not a text bubble', async ({ assert }) => {
    const answers = await probe(
      botWith([
        { id: 'probe', type: 'probe' },
        { id: 'img', type: 'image', content: { url: '{{Answer}}' } },
        text('t1', '{{Answer}}'),
      ])
    )
    assert.isFalse(answers.v1)
  })

  test('false when the next text bubble shows another variable', async ({ assert }) => {
    const answers = await probe(
      botWith([{ id: 'probe', type: 'probe' }, text('t1', 'Only {{Other}} here, not Answer')])
    )
    assert.deepEqual(answers, { v1: false, v2: true, missing: false })
  })

  test('false when the block is last and has no outgoing edge', async ({ assert }) => {
    const answers = await probe(
      botWith([{ id: 'probe', type: 'probe' }], [text('t2', '{{Answer}}')])
    )
    assert.isFalse(answers.v1)
  })

  test('false when the client did not ask for streaming (and for older states)', async ({
    assert,
  }) => {
    const bot = botWith([{ id: 'probe', type: 'probe' }, text('t1', '{{Answer}}')])
    assert.isFalse((await probe(bot, false)).v1)
    // A stored state of before the flag existed reads as not streaming.
    const state = upgradeState({ version: '2', typebotsQueue: [], currentBlockId: 'x' })
    assert.isUndefined(state.isStreamEnabled)
  })

  test('a streaming block pauses with the stream action; the text sent back fills the variable without a visitor answer', async ({
    assert,
  }) => {
    const bot = botWith([
      { id: 'probe', type: 'probe' },
      text('t1', '{{Answer}}'),
      { id: 'ask', type: 'text input', options: { variableId: 'v2' } },
    ])
    const runs: ProbeRun[] = []
    const ports = portsFor(runs, { stream: true })
    const first = await startChat(ports, {
      bot,
      sessionId: 's1',
      resultId: 'r1',
      isStreamEnabled: true,
    })
    assert.deepEqual(first.reply.messages, [])
    assert.deepEqual(first.reply.clientSideActions, [
      { type: 'stream', stream: true, expectsDedicatedReply: true },
    ])
    assert.isUndefined(first.reply.input)
    assert.deepInclude(first.state.awaiting!, {
      kind: 'pause',
      streams: true,
      saveReplyInVariableId: 'v1',
    })

    const second = await continueChat(ports, {
      state: first.state,
      sessionId: 's1',
      bot,
      message: { text: 'The streamed answer' },
    })
    assert.deepEqual(
      second.reply.messages.map((m: any) => m.content.markdown),
      ['The streamed answer']
    )
    assert.equal(second.reply.input?.type, 'text input')
    // Not an answer of the visitor: no answer row, no user line in the transcript.
    assert.deepEqual(second.effects.answers, [])
    assert.equal(second.state.answeredCount, 0)
    assert.deepEqual(
      second.state.transcript.map((entry) => entry.role),
      ['bot']
    )
    const saved = second.effects.results.get('r1')!.variables
    assert.deepInclude(saved, { id: 'v1', name: 'Answer', value: 'The streamed answer' })
  })
})
