import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateCredential } from '#actions/credentials/create_credential'
import { messageText } from '#engine/bot/engine'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT, type ChatReply } from '#shared/chat/types'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import {
  startOpenAiStreamStandIn,
  STREAM_USAGE,
  type OpenAiStreamStandIn,
} from '#tests/stand_ins/openai_stream'
import { startAnthropicStandIn } from '#tests/stand_ins/anthropic'
import { STREAM_MODEL, streamFixtureBot } from './stream_fixture.js'

/**
 * Streaming (issue 7): the fixture bot (question, OpenAI chat completion, a bubble showing
 * the answer, another question) chatted plain and streamed through the public API, against
 * a local OpenAI stand-in. The streamed chat (startChat with isStreamEnabled, the stream
 * action, POST /api/v2/sessions/{id}/streamMessage, continueChat with the full text) must
 * leave the same transcript, variables and answers as the plain one.
 */

const API_KEY = 'sk-stream-test'
const CHUNKS = ['Flowcraft ', 'builds ', 'chatbots ', 'and workflows.']
const FULL_TEXT = CHUNKS.join('')

let standIn: OpenAiStreamStandIn

interface Owner {
  user: User
  token: string
  workspaceId: string
}

async function createOwner(): Promise<Owner> {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `stream-${Date.now()}-${Math.random()}`))
    .value
  return { user, token, workspaceId: workspace.id }
}

async function credentialFor(who: Owner, apiKey = API_KEY) {
  const workspace = await firstWorkspaceOf(who.user)
  const record = await new CreateCredential().handle(who.user, workspace, {
    type: 'openai',
    name: `stand-in ${Math.random()}`,
    data: { apiKey, baseUrl: standIn.baseUrl },
  })
  return record.id
}

async function publish(client: ApiClient, who: Owner, bot: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)
  published.assertStatus(200)
  return { id, publicId: (await Bot.findOrFail(id)).publicId! }
}

async function publishFixture(
  client: ApiClient,
  who: Owner,
  change: (bot: ReturnType<typeof streamFixtureBot>) => void = () => {},
  apiKey = API_KEY
) {
  const bot = streamFixtureBot(await credentialFor(who, apiKey))
  change(bot)
  return publish(client, who, bot)
}

const serverUrl = () => `http://127.0.0.1:${process.env.PORT}`

/** The raw streamMessage call: each read of the body with the time it arrived. */
async function streamMessage(sessionId: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${serverUrl()}/api/v2/sessions/${sessionId}/streamMessage`, {
    method: 'POST',
    headers,
  })
  const reads: { text: string; at: number }[] = []
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    reads.push({ text: decoder.decode(value, { stream: true }), at: Date.now() })
  }
  return { response, reads, text: reads.map((read) => read.text).join('') }
}

async function sessionState(sessionId: string) {
  const row = await db.from('chat_sessions').where('id', sessionId).first()
  return JSON.parse(row.state)
}

function variablesByName(state: any) {
  const root = state.botsQueue.at(-1)
  return Object.fromEntries(root.variables.map((v: any) => [v.name, v.value ?? null]))
}

async function resultOf(resultId: string) {
  const row = await db.from('results').where('id', resultId).first()
  const variables = JSON.parse(row.variables) as { name: string; value: unknown }[]
  const answers = await db
    .from('answers')
    .where('result_id', resultId)
    .orderBy('id')
    .select('block_id', 'content')
  const logs = await db.from('result_logs').where('result_id', resultId).orderBy('id')
  return {
    variables: Object.fromEntries(variables.map((v) => [v.name, v.value])),
    answers: answers.map((a) => ({ blockId: a.block_id, content: a.content })),
    logs: logs.map((log) => ({ status: log.status, description: log.description })),
    isCompleted: Boolean(row.is_completed),
  }
}

interface ChatRun {
  sessionId: string
  resultId: string
  /** Every bot message of the chat, in order. */
  messages: string[]
  /** The reply that carried the stream action (streamed runs). */
  streamReply?: ChatReply
  streamed?: Awaited<ReturnType<typeof streamMessage>>
}

/** Chats the fixture to its end, plain or streamed, as the viewer does. */
async function chat(client: ApiClient, publicId: string, streamed: boolean): Promise<ChatRun> {
  const start = await client
    .post(`/api/v1/typebots/${publicId}/startChat`)
    .json(streamed ? { isStreamEnabled: true } : {})
  start.assertStatus(200)
  const { sessionId, resultId } = start.body()
  const run: ChatRun = { sessionId, resultId, messages: start.body().messages.map(messageText) }
  const send = async (message?: string) => {
    const reply = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json(message === undefined ? {} : { message })
    reply.assertStatus(200)
    const body = reply.body() as ChatReply
    run.messages.push(...body.messages.map(messageText))
    return body
  }
  let reply = await send('What is Flowcraft?')
  if (streamed) {
    run.streamReply = reply
    run.streamed = await streamMessage(sessionId)
    reply = await send(run.streamed.text)
  }
  await send('No thanks')
  return run
}

test.group('Chat streaming: streamMessage', (group) => {
  let who: Owner
  group.setup(async () => {
    standIn = await startOpenAiStreamStandIn({
      apiKey: API_KEY,
      models: [STREAM_MODEL],
      chunks: CHUNKS,
      chunkDelayMs: 150,
    })
    return () => standIn.close()
  })
  group.each.setup(async () => {
    who = await createOwner()
    standIn.failWith(null)
    standIn.cutAfter(null)
    standIn.requests.length = 0
  })

  test('the streamed chat gives the same transcript, variables and answers as the plain one', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, who)

    const plain = await chat(client, publicId, false)
    const plainRequests = standIn.requests.splice(0)
    const streamed = await chat(client, publicId, true)
    const streamedRequests = standIn.requests.splice(0)

    // The streamed turn: no bubble yet, only the stream action awaiting a dedicated reply.
    assert.deepEqual(streamed.streamReply!.messages, [])
    assert.isUndefined(streamed.streamReply!.input)
    assert.deepEqual(
      streamed.streamReply!.clientSideActions!.map(({ type, expectsDedicatedReply }) => ({
        type,
        expectsDedicatedReply,
      })),
      [{ type: 'stream', expectsDedicatedReply: true }]
    )
    const { response, reads, text } = streamed.streamed!
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8')
    assert.equal(text, FULL_TEXT)
    // Chunks arrive as the provider sends them, not all at the end.
    assert.isAbove(reads.length, 1, 'several reads')
    assert.isAtLeast(reads.at(-1)!.at - reads[0].at, 300, 'the first chunk came early')
    assert.notEqual(reads[0].text, FULL_TEXT)

    assert.deepEqual(plain.messages, [
      'Ask me anything.',
      `AI: ${FULL_TEXT}`,
      'Anything else?',
      'Bye!',
    ])
    assert.deepEqual(streamed.messages, plain.messages)

    const plainState = await sessionState(plain.sessionId)
    const streamedState = await sessionState(streamed.sessionId)
    assert.deepEqual(streamedState.transcript, plainState.transcript)
    assert.deepEqual(
      plainState.transcript.filter((entry: any) => entry.role === 'user').map((e: any) => e.text),
      ['What is Flowcraft?', 'No thanks']
    )
    assert.deepEqual(variablesByName(streamedState), variablesByName(plainState))
    assert.equal(streamedState.answeredCount, plainState.answeredCount)

    const plainResult = await resultOf(plain.resultId)
    const streamedResult = await resultOf(streamed.resultId)
    assert.deepEqual(plainResult.variables, {
      Question: 'What is Flowcraft?',
      Answer: FULL_TEXT,
      Tokens: STREAM_USAGE.total_tokens,
      More: 'No thanks',
    })
    assert.deepEqual(streamedResult.variables, plainResult.variables)
    assert.deepEqual(streamedResult.answers, plainResult.answers)
    assert.deepEqual(
      plainResult.answers.map((a) => a.content),
      ['What is Flowcraft?', 'No thanks']
    )
    assert.isTrue(streamedResult.isCompleted)
    assert.deepEqual(
      streamedResult.logs.filter((log) => log.status === 'error'),
      []
    )

    // The provider saw the same conversation, once streamed.
    assert.lengthOf(plainRequests, 1)
    assert.lengthOf(streamedRequests, 1)
    assert.notProperty(plainRequests[0].json, 'stream_options')
    assert.isTrue(streamedRequests[0].json.stream)
    assert.deepEqual(streamedRequests[0].json.messages, plainRequests[0].json.messages)
    assert.deepEqual(streamedRequests[0].json.messages, [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'What is Flowcraft?' },
    ])
    assert.equal(streamedRequests[0].headers.authorization, `Bearer ${API_KEY}`)

    // Both calls were charged to the owner.
    const usages = await db.from('ai_usages').where('account_id', who.user.id)
    assert.lengthOf(usages, 2)
    for (const usage of usages) {
      assert.equal(usage.input_tokens, STREAM_USAGE.prompt_tokens)
      assert.equal(usage.output_tokens, STREAM_USAGE.completion_tokens)
    }
  })

  test('variables the streamer sets are in the session before the response ends', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, who)
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ isStreamEnabled: true })
    const { sessionId } = start.body()
    await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({ message: 'Hi' })
    const streamed = await streamMessage(sessionId)
    assert.equal(streamed.text, FULL_TEXT)
    const state = await sessionState(sessionId)
    assert.equal(variablesByName(state).Tokens, STREAM_USAGE.total_tokens)
    // The answer itself comes with the continueChat that follows.
    assert.isNull(variablesByName(state).Answer)

    // One stream per pause: a second call would run (and bill) the provider again.
    const again = await streamMessage(sessionId)
    assert.equal(again.response.status, 409)
    assert.lengthOf(
      standIn.requests.filter((request) => request.json?.stream),
      1
    )
    // Two calls at once: one streams, the other is refused.
    const other = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ isStreamEnabled: true })
    const otherId = other.body().sessionId as string
    await client.post(`/api/v1/sessions/${otherId}/continueChat`).json({ message: 'Hi' })
    const [first, second] = await Promise.all([streamMessage(otherId), streamMessage(otherId)])
    assert.sameMembers([first.response.status, second.response.status], [200, 409])
  })

  test('errors before the first chunk: the provider status and the messages builders read, logged; the chat goes on', async ({
    client,
    assert,
  }) => {
    const cases: {
      name: string
      apiKey?: string
      model?: string
      fail?: [number, unknown]
      status: number
      message: string
    }[] = [
      { name: 'wrong key', apiKey: 'sk-wrong', status: 401, message: 'API key missing' },
      { name: 'unknown model', model: 'gpt-nope', status: 400, message: 'model not found' },
      {
        name: 'provider overloaded',
        fail: [503, { error: { message: 'The server is overloaded' } }],
        status: 503,
        message: 'The server is overloaded',
      },
    ]
    for (const item of cases) {
      standIn.failWith(item.fail ? item.fail[0] : null, item.fail?.[1])
      const { publicId } = await publishFixture(
        client,
        who,
        (bot) => {
          if (item.model) (bot.groups[0].blocks[2] as any).options.model = item.model
        },
        item.apiKey
      )
      const start = await client
        .post(`/api/v1/typebots/${publicId}/startChat`)
        .json({ isStreamEnabled: true })
      const { sessionId, resultId } = start.body()
      const paused = await client
        .post(`/api/v1/sessions/${sessionId}/continueChat`)
        .json({ message: 'Hi' })
      assert.equal(paused.body().clientSideActions?.[0]?.type, 'stream', item.name)

      const streamed = await streamMessage(sessionId)
      assert.equal(streamed.response.status, item.status, item.name)
      assert.include(streamed.response.headers.get('content-type') ?? '', 'application/json')
      assert.deepEqual(JSON.parse(streamed.text), { message: item.message }, item.name)
      const { logs } = await resultOf(resultId)
      assert.deepInclude(logs, { status: 'error', description: item.message }, item.name)

      // The viewer then goes on without a message: the bubble shows an empty answer.
      standIn.failWith(null)
      const next = await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({})
      next.assertStatus(200)
      assert.deepEqual(next.body().messages.map(messageText), ['AI: ', 'Anything else?'])
      assert.equal(next.body().input?.type, 'text input', item.name)
    }
  })

  test('a stream cut by the provider keeps what came, logs why, and the chat goes on with it', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, who)
    standIn.cutAfter(2)
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ isStreamEnabled: true })
    const { sessionId, resultId } = start.body()
    await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({ message: 'Hi' })
    const streamed = await streamMessage(sessionId)
    assert.equal(streamed.response.status, 200)
    assert.equal(streamed.text, CHUNKS.slice(0, 2).join(''))
    const { logs } = await resultOf(resultId)
    assert.deepInclude(logs, { status: 'error', description: 'Failed to read response stream' })
    const next = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: streamed.text })
    assert.equal(next.body().messages.map(messageText)[0], `AI: ${streamed.text}`)
  })

  test('an owner without AI credits gets the credit limit text', async ({ client, assert }) => {
    const { publicId } = await publishFixture(client, who)
    await db.from('users').where('id', who.user.id).update({ ai_credits: 0 })
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ isStreamEnabled: true })
    const { sessionId } = start.body()
    await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({ message: 'Hi' })
    const streamed = await streamMessage(sessionId)
    assert.equal(streamed.response.status, 402)
    assert.deepEqual(JSON.parse(streamed.text), { message: AI_CREDIT_LIMIT_EXCEEDED_TEXT })
    assert.lengthOf(standIn.requests, 0, 'the provider was not called')
  })

  test('only a session paused on a stream can stream; origins and unknown sessions are refused', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, who, (bot) => {
      ;(bot.settings as any) = { security: { allowedOrigins: ['https://shop.example'] } }
    })
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .header('origin', 'https://shop.example')
      .json({ isStreamEnabled: true })
    start.assertStatus(200)
    const { sessionId } = start.body()

    // Waiting for the question, not for a stream.
    const early = await streamMessage(sessionId, { origin: 'https://shop.example' })
    assert.equal(early.response.status, 409)

    await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .header('origin', 'https://shop.example')
      .json({ message: 'Hi' })
    const elsewhere = await streamMessage(sessionId, { origin: 'https://evil.example' })
    assert.equal(elsewhere.response.status, 403)
    const allowed = await streamMessage(sessionId, { origin: 'https://shop.example' })
    assert.equal(allowed.text, FULL_TEXT)

    const unknown = await streamMessage('no-such-session')
    assert.equal(unknown.response.status, 404)
  })

  test('without isStreamEnabled the block answers at once (no stream action)', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, who)
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    const reply = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: 'Hi' })
    assert.isUndefined(reply.body().clientSideActions)
    assert.equal(reply.body().messages.map(messageText)[0], `AI: ${FULL_TEXT}`)
    assert.isUndefined(standIn.requests[0].json.stream_options)
  })

  test("the editor's preview streams the draft too (no result saved)", async ({
    client,
    assert,
  }) => {
    const { id } = await publishFixture(client, who)
    const start = await client
      .post(`/api/v1/typebots/${id}/preview/startChat`)
      .bearerToken(who.token)
      .json({ isStreamEnabled: true })
    start.assertStatus(200)
    const { sessionId } = start.body()
    const paused = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: 'Preview?' })
    assert.equal(paused.body().clientSideActions?.[0]?.type, 'stream')
    const streamed = await streamMessage(sessionId)
    assert.equal(streamed.text, FULL_TEXT)
    const next = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: streamed.text })
    assert.deepEqual(next.body().messages.map(messageText), [`AI: ${FULL_TEXT}`, 'Anything else?'])
    assert.equal(variablesByName(await sessionState(sessionId)).Tokens, STREAM_USAGE.total_tokens)
  })

  test('the endpoint is in the OpenAPI description', async ({ client, assert }) => {
    const doc = (await client.get('/api/docs/openapi.json')).body()
    const operation = doc.paths['/api/v2/sessions/{sessionId}/streamMessage']?.post
    assert.exists(operation)
    assert.properties(operation.responses, ['200', '400', '401', '402', '409', '500'])
  })
})

/**
 * The endpoint knows no provider: another plugin's streamer (Anthropic's, against its own
 * stand-in) goes through the same path and also gives the plain run's chat.
 */
test.group('Chat streaming: another provider', (group) => {
  let anthropic: Awaited<ReturnType<typeof startAnthropicStandIn>>
  group.setup(async () => {
    anthropic = await startAnthropicStandIn({ apiKey: 'sk-ant-stream' })
    return () => anthropic.close()
  })

  test('an Anthropic block streams through streamMessage and gives the plain chat', async ({
    client,
    assert,
  }) => {
    const who = await createOwner()
    const workspace = await firstWorkspaceOf(who.user)
    const credential = await new CreateCredential().handle(who.user, workspace, {
      type: 'anthropic',
      name: 'stand-in',
      data: { apiKey: 'sk-ant-stream', baseUrl: anthropic.baseUrl },
    })
    const bot = streamFixtureBot('unused')
    bot.groups[0].blocks[2] = {
      id: 'ai',
      type: 'anthropic',
      outgoingEdgeId: 'e2',
      options: {
        action: 'Create Chat Message',
        credentialsId: credential.id,
        model: 'claude-3-haiku-20240307',
        messages: [{ role: 'user', content: '{{Question}}' }],
        responseMapping: [{ id: 'm1', item: 'Message Content', variableId: 'v_answer' }],
      },
    } as any
    const { publicId } = await publish(client, who, bot)

    const plain = await chat(client, publicId, false)
    const streamed = await chat(client, publicId, true)
    const expected = 'Hello! You said: What is Flowcraft?'
    assert.equal(streamed.streamReply!.clientSideActions?.[0]?.type, 'stream')
    assert.equal(streamed.streamed!.text, expected)
    assert.isAbove(streamed.streamed!.reads.length, 0)
    assert.deepEqual(plain.messages, [
      'Ask me anything.',
      `AI: ${expected}`,
      'Anything else?',
      'Bye!',
    ])
    assert.deepEqual(streamed.messages, plain.messages)
    const plainResult = await resultOf(plain.resultId)
    const streamedResult = await resultOf(streamed.resultId)
    assert.deepEqual(streamedResult.variables, plainResult.variables)
    assert.deepEqual(streamedResult.answers, plainResult.answers)
    assert.isTrue(anthropic.messageBodies().at(-1)!.stream)
  })
})
