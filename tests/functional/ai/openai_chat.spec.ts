import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import Result from '#models/result'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage } from '#shared/chat/types'
import { setUserPlan } from '#tests/helpers'
import { startOpenAiStandIn, type OpenAiStandIn } from '#tests/stand_ins/openai'
import { credentialsFor, newOwner, usagesOf, type Owner } from './openai_fixtures.js'

/**
 * A bot with the OpenAI block, published and chatted with through the public chat API: the
 * visitor's question goes to the stand-in, the answer and token count come back in the next
 * bubble, the owner's credits are charged; a provider failure leaves the chat going on; the
 * streamed path (isStreamEnabled) gives the same transcript.
 */

const KEY = 'sk-chat-api'

function text(id: string, value: string) {
  return { id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } }
}

function assistantBot(credentialsId: string) {
  return {
    version: '6',
    name: 'Assistant',
    groups: [
      {
        id: 'g1',
        title: 'Chat',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          text('t1', 'Ask me anything'),
          { id: 'q1', type: 'text input', options: { variableId: 'v_question' } },
          {
            id: 'ai1',
            type: 'openai',
            options: {
              action: 'Create chat completion',
              credentialsId,
              model: 'gpt-4o-mini',
              messages: [
                { role: 'system', content: 'Answer briefly.' },
                { role: 'user', content: '{{Question}}' },
              ],
              responseMapping: [
                { item: 'Message content', variableId: 'v_answer' },
                { item: 'Total tokens', variableId: 'v_tokens' },
              ],
            },
          },
          text('t2', '{{Answer}}'),
          text('t3', 'Used {{Tokens}} tokens'),
        ],
      },
    ],
    events: [
      { id: 'ev_start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
    ],
    edges: [{ id: 'e1', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
    variables: [
      { id: 'v_question', name: 'Question' },
      { id: 'v_answer', name: 'Answer' },
      { id: 'v_tokens', name: 'Tokens' },
    ],
    theme: {},
    settings: {},
  }
}

async function publishAssistant(client: ApiClient, owner: Owner, standIn: OpenAiStandIn) {
  await setUserPlan(owner.user, 'UNLIMITED')
  const token = (await new CreateApiToken().handle(owner.user, `openai-${Date.now()}`)).value
  const credentialsId = await credentialsFor(owner, 'openai', {
    apiKey: KEY,
    baseUrl: standIn.baseUrl,
  })
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: owner.workspace.id, bot: assistantBot(credentialsId) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

const texts = (messages: ChatMessage[]) => messages.map(messageText)

test.group('OpenAI block through the chat API', () => {
  test('the visitor asks, the model answers in the next bubble, credits are charged', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const publicId = await publishAssistant(client, owner, standIn)

    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    assert.deepEqual(texts(start.body().messages), ['Ask me anything'])
    const reply = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: 'What is 2 + 2?' })
    reply.assertStatus(200)
    assert.deepEqual(texts(reply.body().messages), ['Echo: What is 2 + 2?', 'Used 17 tokens'])

    const [call] = standIn.callsTo('/v1/chat/completions')
    assert.deepEqual(call.json.messages, [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'What is 2 + 2?' },
    ])
    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.equal(usages[0].model, 'gpt-4o-mini')
    const result = await Result.findOrFail(start.body().resultId)
    assert.deepInclude(
      (result.variables as any[]).map((v) => [v.name, v.value]),
      ['Answer', 'Echo: What is 2 + 2?']
    )
  })

  test('a provider error: the chat goes on and the visitor sees the next bubbles', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const publicId = await publishAssistant(client, owner, standIn)
    standIn.failWith(500, { error: { message: 'The server had an error' } })

    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    const reply = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: 'Hello?' })
    reply.assertStatus(200)
    // The answer bubble is empty (skipped); the next one shows, the chat is not stuck.
    assert.include(texts(reply.body().messages).join('|'), 'Used  tokens')
    assert.isUndefined(reply.body().logs, 'visitors never see logs')
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('streamed: the same transcript as the plain run', async ({ client, assert, cleanup }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const publicId = await publishAssistant(client, owner, standIn)

    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ isStreamEnabled: true })
    const sessionId = start.body().sessionId
    const paused = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: 'Stream it' })
    paused.assertStatus(200)
    assert.deepEqual(
      (paused.body().clientSideActions ?? []).map((action: any) => action.type),
      ['stream']
    )
    assert.lengthOf(standIn.callsTo('/v1/chat/completions'), 0)

    const streamed = await client.post(`/api/v2/sessions/${sessionId}/streamMessage`).json({})
    streamed.assertStatus(200)
    assert.equal(streamed.text(), 'Echo: Stream it')
    const [call] = standIn.callsTo('/v1/chat/completions')
    assert.isTrue(call.json.stream)

    const rest = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: streamed.text() })
    rest.assertStatus(200)
    // The same bubbles as the plain run: the answer (now from the saved text) and the
    // token count the streamer set.
    assert.deepEqual(texts(rest.body().messages), ['Echo: Stream it', 'Used 17 tokens'])
    const result = await Result.findOrFail(start.body().resultId)
    assert.deepInclude(
      (result.variables as any[]).map((v) => [v.name, v.value]),
      ['Answer', 'Echo: Stream it']
    )
    assert.lengthOf(await usagesOf(owner), 1)
  })
})
