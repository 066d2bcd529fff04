import { test } from '@japa/runner'
import AiUsage from '#models/ai_usage'
import Credential from '#models/credential'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateCredential } from '#actions/credentials/create_credential'
import { TestCredential } from '#actions/credentials/test_credential'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import { messageText } from '#engine/bot/engine'
import type { StartChatResponse } from '#shared/chat/types'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { startChatNodeStandIn } from '#tests/stand_ins/chat_node'

/**
 * The chat-node block through the real runner context (credentials decrypted from the
 * database, guarded HTTP, AI credits) against the local chat-node stand-in, and once
 * through the chat API to show a failing call leaves the conversation going.
 */

const KEY = 'cn-test-key-0123456789'

/** Runs a credential's "Test" as the settings page does. */
async function testCredential(user: User, id: string) {
  return new TestCredential().handle(user, await Credential.findOrFail(id))
}

const VARIABLES: VariableState[] = [
  { id: 'v_question', name: 'Question', value: 'What are your opening hours?' },
  { id: 'v_thread', name: 'Thread' },
  { id: 'v_answer', name: 'Answer' },
]

/** A bot asking chat-node, then showing the answer in a text bubble. */
function chatBot(credentialsId: string, botId: string) {
  return {
    version: '6',
    name: 'chat-node flow',
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          {
            id: 'cn1',
            type: 'chat-node',
            options: {
              credentialsId,
              botId,
              threadId: '{{Thread}}',
              message: 'Hello',
              responseMapping: [
                { item: 'Message', variableId: 'v_answer' },
                { item: 'Thread ID', variableId: 'v_thread' },
              ],
            },
          },
          {
            id: 't1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Bot: {{Answer}}' }] }] },
          },
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: VARIABLES.map(({ id, name }) => ({ id, name })),
    theme: {},
    settings: {},
  }
}

test.group('chat-node block', (group) => {
  let service: Awaited<ReturnType<typeof startChatNodeStandIn>>
  let user: User
  let workspaceId: string
  let credentialsId: string

  group.setup(async () => {
    service = await startChatNodeStandIn({ apiKey: KEY, botIds: ['bot-42'] })
    user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    workspaceId = workspace.id
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'chat-node',
      name: 'ChatNode',
      data: { apiKey: KEY, baseUrl: service.baseUrl },
    })
    credentialsId = record.id
    return () => service.close()
  })
  group.each.setup(() => {
    service.requests.length = 0
  })

  async function run(options: Record<string, unknown>, variables = VARIABLES) {
    const registry = await pluginRegistry()
    return runPlugin({
      registry,
      plugin: registry.get('chat-node')!,
      options: { credentialsId, ...options },
      variables,
      workspaceId,
      ownerId: user.id,
    })
  }

  const usagesOf = (owner: User) =>
    AiUsage.query().where('account_id', owner.id).where('source', 'chat-node').orderBy('id')

  test('the credential test accepts the key and refuses a wrong one', async ({ assert }) => {
    const workspace = await firstWorkspaceOf(user)
    const good = await testCredential(user, credentialsId)
    assert.deepEqual(good, { ok: true, message: 'Connected: the API key was accepted.' })
    assert.equal(service.requests[0].headers.authorization, `Bearer ${KEY}`)
    assert.equal(service.requests[0].path, '/v1/flowcraft-credentials-check')

    const wrong = await new CreateCredential().handle(user, workspace, {
      type: 'chat-node',
      name: 'Wrong',
      data: { apiKey: 'nope', baseUrl: service.baseUrl },
    })
    const refused = await testCredential(user, wrong.id)
    assert.deepEqual(refused, { ok: false, message: 'The API key was refused (401).' })
  })

  test('an empty thread id starts a thread; the next message continues it', async ({ assert }) => {
    const options = {
      botId: 'bot-42',
      threadId: '{{Thread}}',
      message: '{{Question}}',
      responseMapping: [
        { item: 'Message', variableId: 'v_answer' },
        { item: 'Thread ID', variableId: 'v_thread' },
      ],
    }
    const first = await run(options)
    assert.deepEqual(first.logs, [])
    const [request] = service.requests
    assert.equal(request.method, 'POST')
    assert.equal(request.path, '/v1/bot-42')
    assert.equal(request.headers.authorization, `Bearer ${KEY}`)
    assert.match(String(request.headers['content-type']), /^application\/json/)
    // A new thread: no session id is sent at all.
    assert.deepEqual(request.json, { message: 'What are your opening hours?' })
    const thread = first.variablesSet.find((v) => v.id === 'v_thread')?.value
    assert.isString(thread)
    assert.isTrue(service.threads.has(thread as string))
    assert.deepEqual(first.variablesSet, [
      { id: 'v_answer', value: 'Answer 1 to "What are your opening hours?"' },
      { id: 'v_thread', value: thread },
    ])

    const second = await run(
      { ...options, message: 'And on Sunday?' },
      VARIABLES.map((v) => (v.id === 'v_thread' ? { ...v, value: thread as string } : v))
    )
    assert.deepEqual(second.logs, [])
    assert.deepEqual(service.requests[1].json, {
      message: 'And on Sunday?',
      chat_session_id: thread,
    })
    assert.deepEqual(second.variablesSet, [
      { id: 'v_answer', value: 'Answer 2 to "And on Sunday?"' },
      { id: 'v_thread', value: thread },
    ])
  })

  test('each call is recorded in the AI usage with zero tokens', async ({ assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const record = await new CreateCredential().handle(owner, workspace, {
      type: 'chat-node',
      name: 'ChatNode',
      data: { apiKey: KEY, baseUrl: service.baseUrl },
    })
    const registry = await pluginRegistry()
    const out = await runPlugin({
      registry,
      plugin: registry.get('chat-node')!,
      options: { credentialsId: record.id, botId: 'bot-42', message: 'Hi' },
      variables: VARIABLES,
      workspaceId: workspace.id,
      ownerId: owner.id,
    })
    assert.deepEqual(out.logs, [])
    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.equal(usages[0].workspaceId, workspace.id)
    assert.equal(usages[0].inputTokens, 0)
    assert.equal(usages[0].outputTokens, 0)
    assert.isNull(usages[0].model)
    assert.equal(usages[0].creditsUsed, 0)
  })

  test('a missing key, bot id or message is logged and nothing is sent', async ({ assert }) => {
    const registry = await pluginRegistry()
    const noKey = await runPlugin({
      registry,
      plugin: registry.get('chat-node')!,
      options: { botId: 'bot-42', message: 'Hi' },
      variables: VARIABLES,
      workspaceId,
      ownerId: user.id,
    })
    assert.deepEqual(
      noKey.logs.map((l) => [l.status, l.description]),
      [['error', 'No API key provided']]
    )
    const noBot = await run({ message: 'Hi' })
    assert.deepEqual(
      noBot.logs.map((l) => l.description),
      ['Bot ID is missing']
    )
    const noMessage = await run({ botId: 'bot-42', message: '{{Answer}}' })
    assert.deepEqual(
      noMessage.logs.map((l) => l.description),
      ['Message is missing']
    )
    assert.lengthOf(service.requests, 0)
  })

  test('a provider error is logged with its details, no variable is set and nothing is charged', async ({
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const record = await new CreateCredential().handle(owner, workspace, {
      type: 'chat-node',
      name: 'ChatNode',
      data: { apiKey: KEY, baseUrl: service.baseUrl },
    })
    const registry = await pluginRegistry()
    const out = await runPlugin({
      registry,
      plugin: registry.get('chat-node')!,
      options: {
        credentialsId: record.id,
        botId: 'broken',
        message: 'Hi',
        responseMapping: [{ item: 'Message', variableId: 'v_answer' }],
      },
      variables: VARIABLES,
      workspaceId: workspace.id,
      ownerId: owner.id,
    })
    assert.lengthOf(out.logs, 1)
    assert.equal(out.logs[0].status, 'error')
    assert.equal(out.logs[0].description, 'An API call error occured while generating the response')
    assert.deepInclude(out.logs[0].details as object, {
      status: 500,
      message: 'The bot is unavailable',
    })
    assert.isUndefined(out.result)
    assert.deepEqual(out.variablesSet, [])
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('an owner without AI credits gets no call', async ({ assert }) => {
    const owner = await createUser()
    owner.aiCredits = 0
    await owner.save()
    const workspace = await firstWorkspaceOf(owner)
    const record = await new CreateCredential().handle(owner, workspace, {
      type: 'chat-node',
      name: 'ChatNode',
      data: { apiKey: KEY, baseUrl: service.baseUrl },
    })
    const registry = await pluginRegistry()
    const out = await runPlugin({
      registry,
      plugin: registry.get('chat-node')!,
      options: { credentialsId: record.id, botId: 'bot-42', message: 'Hi' },
      variables: VARIABLES,
      workspaceId: workspace.id,
      ownerId: owner.id,
    })
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.equal(out.logs[0].status, 'error')
    assert.lengthOf(service.requests, 0)
  })

  test('in a chat, a failing call is logged and the next bubble still shows', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(owner)
    const token = (await new CreateApiToken().handle(owner, `cn-${Date.now()}`)).value
    const record = await new CreateCredential().handle(owner, workspace, {
      type: 'chat-node',
      name: 'ChatNode',
      data: { apiKey: KEY, baseUrl: service.baseUrl },
    })
    const start = async (botId: string) => {
      const imported = await client
        .post('/api/v1/bots')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, bot: chatBot(record.id, botId) })
      imported.assertStatus(201)
      const response = await client
        .post(`/api/v1/typebots/${imported.body().bot.id}/preview/startChat`)
        .bearerToken(token)
        .json({})
      response.assertStatus(200)
      return response.body() as StartChatResponse
    }

    const ok = await start('bot-42')
    assert.deepEqual(ok.messages.map(messageText), ['Bot: Answer 1 to "Hello"'])
    assert.notInclude(
      (ok.logs ?? []).map((l) => l.status),
      'error'
    )

    const failed = await start('broken')
    assert.deepEqual(failed.messages.map(messageText), ['Bot: '])
    assert.deepEqual(
      (failed.logs ?? []).map((l) => [l.status, l.description]),
      [['error', 'An API call error occured while generating the response']]
    )
  })

  test('in a chat, an owner without credits gets aiCreditLimitExceededError and the flow goes on', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'UNLIMITED')
    owner.aiCredits = 0
    await owner.save()
    const workspace = await firstWorkspaceOf(owner)
    const token = (await new CreateApiToken().handle(owner, `cn-${Date.now()}`)).value
    const record = await new CreateCredential().handle(owner, workspace, {
      type: 'chat-node',
      name: 'ChatNode',
      data: { apiKey: KEY, baseUrl: service.baseUrl },
    })
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: chatBot(record.id, 'bot-42') })
    imported.assertStatus(201)
    const response = await client
      .post(`/api/v1/typebots/${imported.body().bot.id}/preview/startChat`)
      .bearerToken(token)
      .json({})
    response.assertStatus(200)
    const reply = response.body() as StartChatResponse
    assert.isString(reply.aiCreditLimitExceededError)
    assert.deepEqual(reply.messages.map(messageText), ['Bot: '])
    assert.include(
      (reply.logs ?? []).map((l) => l.status),
      'error'
    )
    assert.lengthOf(service.requests, 0)
  })
})
