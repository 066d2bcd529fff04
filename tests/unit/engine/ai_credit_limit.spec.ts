import { test } from '@japa/runner'
import { continueChat, messageText, startChat } from '#engine/bot/engine'
import type { BlockRunOutcome, EngineBot, EnginePorts } from '#engine/bot/ports'
import type { BotCategory, LogEntry } from '#plugins/define_plugin'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import { migrateBot } from '#shared/bot/migrate'

/**
 * When an AI block's ensureCredits() refuses (the owner has no credits left), the runner
 * context reports `aiCreditLimitExceeded`: the visitor's reply then carries
 * aiCreditLimitExceededError, the run log says why, and the flow goes on like after any
 * failed block.
 */

const CATEGORIES: Record<string, BotCategory> = {
  'ai-probe': 'integration',
  'text': 'bubble',
  'text input': 'input',
}

const LIMIT_LOG: LogEntry = {
  status: 'error',
  description: 'No AI credits left',
  details: { name: 'AiCreditLimitExceededError', message: 'No AI credits left' },
}

/** Ports whose `ai-probe` block answers, or reports the credit limit while `outOfCredits`. */
function portsFor(account: { outOfCredits: boolean }): EnginePorts {
  const empty = { options: {}, logs: [], variablesSet: [] }
  return {
    appUrl: 'http://localhost',
    newId: (() => {
      let n = 0
      return () => `id${++n}`
    })(),
    categoryOf: (type) => CATEGORIES[type],
    showsStreamedText: (type) => type === 'text',
    isAllowed: () => true,
    async runBlock({ block }): Promise<BlockRunOutcome> {
      if (block.type === 'ai-probe') {
        if (account.outOfCredits) {
          return { ...empty, logs: [LIMIT_LOG], aiCreditLimitExceeded: true }
        }
        return { ...empty, variablesSet: [{ id: 'v_answer', value: 'Forty-two' }] }
      }
      if (block.type === 'text') {
        const markdown = String((block.content as any)?.plainText ?? '')
        return {
          ...empty,
          result: {
            messages: [{ id: block.id, type: 'text', content: { type: 'markdown', markdown } }],
          },
        }
      }
      return empty
    },
    async parseAnswer({ answer }) {
      return { parsed: { status: 'success', value: answer.text }, logs: [] }
    },
    loadBot: async () => undefined,
  }
}

function text(id: string, plainText: string) {
  return { id, type: 'text', content: { plainText } }
}

/** Start: a greeting, the AI block, a text after it, a question, the AI block again, a goodbye. */
function bot(): EngineBot {
  const raw = {
    version: '6',
    id: 'bot1',
    name: 'Credits',
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          text('t1', 'Hello'),
          { id: 'ai1', type: 'ai-probe', options: {} },
          text('t2', 'After the AI block'),
          { id: 'q1', type: 'text input', options: { variableId: 'v_question' } },
          { id: 'ai2', type: 'ai-probe', options: {} },
          text('t3', 'Goodbye'),
        ],
      },
    ],
    edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
    variables: [
      { id: 'v_answer', name: 'Answer' },
      { id: 'v_question', name: 'Question' },
    ],
    theme: {},
    settings: {},
  }
  return { id: 'bot1', workspaceId: 'ws', publishedAt: 'now', content: migrateBot(raw) }
}

test.group('Chat engine: AI credit limit', () => {
  test('the reply carries aiCreditLimitExceededError and the log says why; the flow goes on', async ({
    assert,
  }) => {
    const output = await startChat(portsFor({ outOfCredits: true }), {
      bot: bot(),
      sessionId: 's1',
      resultId: 'r1',
      isPreview: true,
    })
    assert.equal(output.reply.aiCreditLimitExceededError, AI_CREDIT_LIMIT_EXCEEDED_TEXT)
    assert.deepEqual(output.reply.messages.map(messageText), ['Hello', 'After the AI block'])
    assert.equal(output.reply.input?.type, 'text input')
    // Kept with the result, so the owner sees it in the results' logs.
    assert.deepInclude(output.effects.logs, { ...LIMIT_LOG, resultId: 'r1' })
    // The builder's preview shows the log next to the chat.
    assert.deepInclude(output.reply.logs ?? [], LIMIT_LOG)
  })

  test('no error field while the owner has credits', async ({ assert }) => {
    const output = await startChat(portsFor({ outOfCredits: false }), {
      bot: bot(),
      sessionId: 's1',
      resultId: 'r1',
    })
    assert.notProperty(output.reply, 'aiCreditLimitExceededError')
    assert.isFalse(output.effects.logs.some((log) => log.status === 'error'))
  })

  test('the error belongs to the turn whose block hit the limit', async ({ assert }) => {
    const account = { outOfCredits: false }
    const ports = portsFor(account)
    const first = await startChat(ports, { bot: bot(), sessionId: 's1', resultId: 'r1' })
    assert.notProperty(first.reply, 'aiCreditLimitExceededError')

    // The credits run out between two turns: only the second reply reports it.
    account.outOfCredits = true
    const second = await continueChat(ports, {
      state: JSON.parse(JSON.stringify(first.state)),
      sessionId: 's1',
      bot: bot(),
      message: { text: 'What is the answer?' },
    })
    assert.equal(second.reply.aiCreditLimitExceededError, AI_CREDIT_LIMIT_EXCEEDED_TEXT)
    assert.deepEqual(second.reply.messages.map(messageText), ['Goodbye'])
    assert.deepInclude(second.effects.logs, { ...LIMIT_LOG, resultId: 'r1' })
    // Not a preview: visitors get the error field, never the run log.
    assert.notProperty(second.reply, 'logs')
  })
})
