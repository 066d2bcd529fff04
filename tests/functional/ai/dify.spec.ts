import { test } from '@japa/runner'
import { streamReply } from '#plugins/define_plugin'
import { streamErrorOf } from '#sdk/ai'
import { TestCredential } from '#actions/credentials/test_credential'
import Credential from '#models/credential'
import type { VariableState } from '#services/runner_context'
import { storeCredential } from '#tests/helpers'
import { startDifyStandIn } from '#tests/stand_ins/dify'
import { difyOrigin } from '../../../plugins/dify-ai/index.js'
import { messageText } from '#engine/bot/engine'
import type { ApiClient } from '@japa/api-client'
import type { ChatReply } from '#shared/chat/types'
import {
  apiOwner,
  botContext,
  descriptions,
  paragraph,
  publishBot,
  resultLogs,
  streamMessage,
  newOwner,
  runBlock,
  runStreamer,
  saveCredentials,
  usagesOf,
  type Owner,
} from './provider_fixtures.js'

/**
 * The Dify block through the registry and the real runner context, against the Dify
 * stand-in, which checks the key and the chat-messages body and streams Dify's events.
 */

const KEY = 'app-stand-in'
const ACTION = 'Create Chat Message'

const VARIABLES: VariableState[] = [
  { id: 'vQuestion', name: 'Question', value: 'Where is my order?' },
  { id: 'vEmail', name: 'Email', value: 'ada@example.com' },
  { id: 'vPlan', name: 'Plan', value: 'Pro' },
  { id: 'vConversation', name: 'Conversation' },
  { id: 'vAnswer', name: 'Answer' },
  { id: 'vConversationOut', name: 'Conversation out' },
  { id: 'vTokens', name: 'Tokens' },
]

type StandInOptions = Parameters<typeof startDifyStandIn>[0]

async function setup(
  cleanup: (fn: () => Promise<void> | void) => void,
  options: Partial<StandInOptions> = {}
) {
  const standIn = await startDifyStandIn({ apiKey: KEY, ...options })
  cleanup(() => standIn.close())
  const owner = await newOwner()
  // Pasted as Dify shows it (with /v1 and more): only the origin is kept.
  const credentialsId = await saveCredentials(owner, 'dify-ai', {
    apiEndpoint: `${standIn.origin}/v1/anything?x=1`,
    apiKey: KEY,
  })
  return { standIn, owner, credentialsId }
}

function chatOptions(credentialsId: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    action: ACTION,
    credentialsId,
    query: '{{Question}}',
    conversationVariableId: 'vConversation',
    user: '{{Email}}',
    inputs: [
      { id: 'i1', key: 'plan', value: '{{Plan}}' },
      { id: 'i2', key: '', value: 'skipped' },
      { id: 'i3', key: 'empty', value: '' },
    ],
    responseMapping: [
      { id: 'm1', item: 'Answer', variableId: 'vAnswer' },
      { id: 'm2', item: 'Conversation ID', variableId: 'vConversationOut' },
      { id: 'm3', item: 'Total Tokens', variableId: 'vTokens' },
    ],
    ...extra,
  }
}

/** The variables after a turn, as the next turn starts with them. */
function after(variables: VariableState[], set: { id: string; value: unknown }[]) {
  return variables.map((variable) => {
    const changed = set.find((entry) => entry.id === variable.id)
    return changed ? { ...variable, value: changed.value as any } : variable
  })
}

async function saveRawCredentials(owner: Owner, data: Record<string, unknown>) {
  // Written around the save validation: a record from before the endpoint rule.
  const record = await storeCredential(
    { workspaceId: owner.workspace.id, userId: owner.user.id },
    { type: 'dify-ai', name: 'old', data }
  )
  return record.id
}

test.group('Dify: Create Chat Message', () => {
  test('sends the query, inputs and user in streaming mode; maps answer, conversation id and tokens; charges credits', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'dify-ai', chatOptions(credentialsId), VARIABLES)
    assert.deepEqual(out.logs, [])
    const [request] = standIn.requests
    assert.equal(request.method, 'POST')
    assert.equal(request.path, '/v1/chat-messages')
    assert.equal(request.headers.authorization, `Bearer ${KEY}`)
    assert.deepEqual(request.body, {
      inputs: { plan: 'Pro' },
      query: 'Where is my order?',
      response_mode: 'streaming',
      conversation_id: '',
      user: 'ada@example.com',
      files: [],
    })
    assert.sameDeepMembers(out.variablesSet, [
      { id: 'vConversation', value: 'conv-1' },
      { id: 'vAnswer', value: 'You asked: Where is my order?' },
      { id: 'vConversationOut', value: 'conv-1' },
      { id: 'vTokens', value: 28 },
    ])
    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.include(usages[0].serialize(), {
      model: null,
      source: 'dify-ai',
      inputTokens: 20,
      outputTokens: 8,
    })
    // No model: the default price row (2,000,000 input, 500,000 output tokens per credit).
    assert.equal(usages[0].creditsUsed, 0.000026)

    // The next turn continues the conversation.
    const next = await runBlock(
      owner,
      'dify-ai',
      chatOptions(credentialsId, { user: '' }),
      after(VARIABLES, out.variablesSet)
    )
    assert.deepEqual(next.logs, [])
    assert.equal(standIn.chatBodies()[1].conversation_id, 'conv-1')
    // Without a user, the chat's result stands for the visitor.
    assert.match(standIn.chatBodies()[1].user, /\S/)
  })

  test('agent apps: agent_message deltas make the answer', async ({ assert, cleanup }) => {
    const { owner, credentialsId } = await setup(cleanup, {
      agent: true,
      answer: () => ['Your order ', 'ships ', 'today.'],
    })
    const out = await runBlock(owner, 'dify-ai', chatOptions(credentialsId), VARIABLES)
    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Your order ships today.')
  })

  test('no key, no query, an endpoint without http(s): logged, nothing sent', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const noKey = await runBlock(owner, 'dify-ai', chatOptions(undefined), VARIABLES)
    assert.deepEqual(descriptions(noKey.logs), ['No API key provided'])
    const noQuery = await runBlock(
      owner,
      'dify-ai',
      chatOptions(credentialsId, { query: '{{Nothing}} ' }),
      VARIABLES
    )
    assert.deepEqual(descriptions(noQuery.logs), ['No query provided'])
    const oldRecord = await saveRawCredentials(owner, {
      apiEndpoint: 'api.dify.ai/v1',
      apiKey: KEY,
    })
    const badEndpoint = await runBlock(owner, 'dify-ai', chatOptions(oldRecord), VARIABLES)
    assert.deepEqual(descriptions(badEndpoint.logs), [
      'The API endpoint must be an http or https URL',
    ])
    assert.lengthOf(standIn.requests, 0)
  })

  test('the endpoint is checked on save: http or https with the protocol', async ({ assert }) => {
    const owner = await newOwner()
    for (const apiEndpoint of ['api.dify.ai', 'ftp://dify.example.com', 'https://']) {
      const error: any = await saveCredentials(owner, 'dify-ai', { apiEndpoint, apiKey: KEY }).then(
        () => null,
        (thrown) => thrown
      )
      assert.deepInclude(
        error?.messages ?? [],
        {
          field: 'apiEndpoint',
          message: 'The API endpoint must be an http or https URL',
          rule: 'pattern',
        },
        apiEndpoint
      )
    }
    await assert.doesNotReject(() =>
      saveCredentials(owner, 'dify-ai', { apiEndpoint: 'http://dify.internal:5001', apiKey: KEY })
    )
  })

  test('provider errors are logged and the flow goes on', async ({ assert, cleanup }) => {
    const failing = await setup(cleanup, { failWith: 500 })
    const failed = await runBlock(
      failing.owner,
      'dify-ai',
      chatOptions(failing.credentialsId),
      VARIABLES
    )
    assert.isUndefined(failed.result)
    assert.deepEqual(descriptions(failed.logs), [
      'An API call error occured while generating the response',
    ])
    assert.include(failed.logs[0].details as object, {
      status: 500,
      message: 'Internal Server Error',
    })
    assert.deepEqual(failed.variablesSet, [])
    assert.lengthOf(await usagesOf(failing.owner), 0)

    const { owner, credentialsId } = await setup(cleanup, { errorAfterFirstDelta: true })
    const broken = await runBlock(owner, 'dify-ai', chatOptions(credentialsId), VARIABLES)
    assert.include(broken.logs[0].details as object, {
      status: 400,
      message: 'The model is overloaded',
    })
    assert.deepEqual(broken.variablesSet, [])
    // The stream had started: what was generated is charged.
    assert.lengthOf(await usagesOf(owner), 1)

    const lost = await runBlock(
      owner,
      'dify-ai',
      chatOptions(credentialsId),
      VARIABLES.map((v) => (v.id === 'vConversation' ? { ...v, value: 'conv-gone' } : v))
    )
    assert.include(lost.logs[0].details as object, {
      status: 404,
      message: 'Conversation Not Exists.',
    })
  })
})

test.group('Dify: streaming', () => {
  test('a stream pause, then the deltas; the conversation id and tokens are saved by the streamer', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      answer: () => ['It ', 'left ', 'yesterday.'],
    })
    const options = chatOptions(credentialsId)
    const paused = await runBlock(
      owner,
      'dify-ai',
      options,
      VARIABLES,
      botContext('dify-ai', 'vAnswer')
    )
    assert.deepEqual(paused.result, streamReply('vAnswer'))
    assert.lengthOf(standIn.requests, 0)

    const streamed = await runStreamer(owner, 'dify-ai', options, VARIABLES)
    assert.isUndefined(streamed.error)
    assert.deepEqual(streamed.chunks, ['It ', 'left ', 'yesterday.'])
    assert.sameDeepMembers(streamed.variablesSet, [
      { id: 'vConversation', value: 'conv-1' },
      { id: 'vConversationOut', value: 'conv-1' },
      { id: 'vTokens', value: 28 },
    ])
    assert.equal(standIn.requests[0].headers.authorization, `Bearer ${KEY}`)
    assert.equal(standIn.requests[0].body.response_mode, 'streaming')
    assert.lengthOf(await usagesOf(owner), 1)
  })

  test("stream errors: 401 'API key missing', else Dify's status and words", async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const noKey = await runStreamer(owner, 'dify-ai', chatOptions(undefined), VARIABLES)
    assert.deepEqual(streamErrorOf(noKey.error), { status: 401, message: 'API key missing' })

    const lost = await runStreamer(
      owner,
      'dify-ai',
      chatOptions(credentialsId),
      VARIABLES.map((v) => (v.id === 'vConversation' ? { ...v, value: 'conv-gone' } : v))
    )
    assert.deepEqual(streamErrorOf(lost.error), {
      status: 404,
      message: 'Conversation Not Exists.',
    })

    const wrongKey = await setup(cleanup)
    const wrongId = await saveCredentials(wrongKey.owner, 'dify-ai', {
      apiEndpoint: wrongKey.standIn.origin,
      apiKey: 'app-wrong',
    })
    const refused = await runStreamer(wrongKey.owner, 'dify-ai', chatOptions(wrongId), VARIABLES)
    assert.deepEqual(streamErrorOf(refused.error), { status: 401, message: 'API key missing' })
  })
})

test.group('Dify: credentials', () => {
  test('the endpoint is reduced to its origin; anything but an http(s) URL is refused', ({
    assert,
  }) => {
    assert.equal(difyOrigin('https://api.dify.ai/v1'), 'https://api.dify.ai')
    assert.equal(difyOrigin(' http://Dify.Internal:5001/x?y#z '), 'http://dify.internal:5001')
    for (const bad of ['api.dify.ai', 'ftp://dify.ai', 'https://', 'javascript:alert(1)', '', 42])
      assert.isUndefined(difyOrigin(bad), String(bad))
  })

  test('the credential test reads the app info with the key', async ({ assert, cleanup }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const good = await new TestCredential().handle(
      owner.user,
      await Credential.findOrFail(credentialsId)
    )
    assert.deepEqual(good, { ok: true, message: 'Connected to "Support bot".' })

    const other = await startDifyStandIn({ apiKey: 'app-other' })
    cleanup(() => other.close())
    const wrongId = await saveCredentials(owner, 'dify-ai', {
      apiEndpoint: other.origin,
      apiKey: KEY,
    })
    const wrong = await new TestCredential().handle(
      owner.user,
      await Credential.findOrFail(wrongId)
    )
    assert.deepEqual(wrong, { ok: false, message: 'Access token is invalid' })
  })
})

/**
 * A support bot asking Dify twice: the second question must continue the conversation
 * Dify opened with the first, whether the answers were streamed or not.
 */
function difyBot(credentialsId: string) {
  const dify = (id: string, next?: string) => ({
    id,
    type: 'dify-ai',
    ...(next ? { outgoingEdgeId: next } : {}),
    options: {
      action: ACTION,
      credentialsId,
      query: '{{Question}}',
      conversationVariableId: 'v_conversation',
      responseMapping: [{ id: `m_${id}`, item: 'Answer', variableId: 'v_answer' }],
    },
  })
  return {
    version: '6',
    name: 'Dify support',
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
    ],
    edges: [
      { id: 'e1', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'e2', from: { blockId: 'ai1' }, to: { groupId: 'g2' } },
      { id: 'e3', from: { blockId: 'ai2' }, to: { groupId: 'g3' } },
    ],
    variables: [
      { id: 'v_question', name: 'Question' },
      { id: 'v_answer', name: 'Answer' },
      { id: 'v_conversation', name: 'Conversation' },
    ],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          { id: 't1', type: 'text', content: paragraph('How can I help?') },
          { id: 'q1', type: 'text input', options: { variableId: 'v_question' } },
          dify('ai1', 'e2'),
        ],
      },
      {
        id: 'g2',
        title: 'Answer',
        graphCoordinates: { x: 300, y: 100 },
        blocks: [
          { id: 't2', type: 'text', content: paragraph('{{Answer}}') },
          { id: 'q2', type: 'text input', options: { variableId: 'v_question' } },
          dify('ai2', 'e3'),
        ],
      },
      {
        id: 'g3',
        title: 'Again',
        graphCoordinates: { x: 600, y: 100 },
        blocks: [
          { id: 't3', type: 'text', content: paragraph('{{Answer}}') },
          { id: 't4', type: 'text', content: paragraph('Bye ({{Conversation}})') },
        ],
      },
    ],
    theme: {},
    settings: {},
  }
}

async function chatWithDify(client: ApiClient, publicId: string, streamed: boolean) {
  const start = await client
    .post(`/api/v1/typebots/${publicId}/startChat`)
    .json(streamed ? { isStreamEnabled: true } : {})
  start.assertStatus(200)
  const { sessionId, resultId } = start.body()
  const messages: string[] = start.body().messages.map(messageText)
  const streams: number[] = []
  const send = async (message: string) => {
    const reply = await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({ message })
    reply.assertStatus(200)
    const body = reply.body() as ChatReply
    messages.push(...body.messages.map(messageText))
    return body
  }
  for (const question of ['Where is my order?', 'And when will it arrive?']) {
    const reply = await send(question)
    if (streamed) {
      if (reply.clientSideActions?.[0]?.type !== 'stream') throw new Error('no stream action')
      const stream = await streamMessage(sessionId)
      streams.push(stream.status)
      await send(stream.text)
    }
  }
  return { messages, resultId, streams }
}

test.group('Dify in a chat', () => {
  test('plain and streamed chats continue the same Dify conversation and read the same', async ({
    assert,
    client,
    cleanup,
  }) => {
    const standIn = await startDifyStandIn({ apiKey: KEY })
    cleanup(() => standIn.close())
    const owner = await apiOwner()
    const credentialsId = await saveCredentials(owner, 'dify-ai', {
      apiEndpoint: standIn.origin,
      apiKey: KEY,
    })
    const publicId = await publishBot(client, owner, difyBot(credentialsId))

    const plain = await chatWithDify(client, publicId, false)
    assert.deepEqual(plain.messages, [
      'How can I help?',
      'You asked: Where is my order?',
      'You asked: And when will it arrive?',
      'Bye (conv-1)',
    ])
    const streamed = await chatWithDify(client, publicId, true)
    assert.deepEqual(streamed.streams, [200, 200])
    // A new chat starts a new Dify conversation, continued the same way.
    assert.deepEqual(
      streamed.messages,
      plain.messages.map((text) => text.replace('conv-1', 'conv-2'))
    )
    assert.deepEqual(
      standIn.chatBodies().map((body) => [body.query, body.conversation_id]),
      [
        ['Where is my order?', ''],
        ['And when will it arrive?', 'conv-1'],
        ['Where is my order?', ''],
        // Saved by the streamer, before the visitor's continueChat.
        ['And when will it arrive?', 'conv-2'],
      ]
    )
    assert.lengthOf(await usagesOf(owner), 4)
  })

  test('a Dify failure is logged in the result and the chat goes on', async ({
    assert,
    client,
    cleanup,
  }) => {
    const standIn = await startDifyStandIn({ apiKey: KEY, failWith: 503 })
    cleanup(() => standIn.close())
    const owner = await apiOwner()
    const credentialsId = await saveCredentials(owner, 'dify-ai', {
      apiEndpoint: standIn.origin,
      apiKey: KEY,
    })
    const publicId = await publishBot(client, owner, difyBot(credentialsId))
    const chat = await chatWithDify(client, publicId, false)
    // Empty answers make empty bubbles, which are not shown; the chat reaches its end.
    assert.equal(chat.messages.at(0), 'How can I help?')
    assert.equal(chat.messages.at(-1), 'Bye ()')
    assert.deepEqual(
      (await resultLogs(chat.resultId)).filter((log) => log.status === 'error'),
      [
        { status: 'error', description: 'An API call error occured while generating the response' },
        { status: 'error', description: 'An API call error occured while generating the response' },
      ]
    )
  })
})
