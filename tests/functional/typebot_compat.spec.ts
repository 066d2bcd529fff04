import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage } from '#shared/chat/types'
import {
  equals,
  exportId,
  group,
  textBubble,
  textInput,
  typebotExport,
} from '#tests/typebot_exports'

/**
 * Bots exported from Typebot (version "6.1") behave as there, through the REST and chat
 * APIs (docs/migrating-from-typebot.md).
 */

interface Owner {
  token: string
  workspaceId: string
}

async function owner(): Promise<Owner> {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `tb-${Date.now()}-${Math.random()}`)).value
  return { token, workspaceId: workspace.id }
}

async function importBot(client: ApiClient, who: Owner, bot: Record<string, any>) {
  return client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot })
}

async function publish(client: ApiClient, who: Owner, bot: Record<string, any>) {
  const imported = await importBot(client, who, bot)
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)).assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

const texts = (messages: ChatMessage[]) => messages.map(messageText)

/**
 * Asks a word, then a Condition with two branches: "stop" holds first and is not
 * connected; "go" leads to another group. A bubble follows the Condition in its group.
 */
function conditionBot(options: { elseEdge?: boolean } = {}) {
  const blocks: Record<string, any>[] = [
    textInput('b_word', 'v_word'),
    {
      id: 'b_cond',
      type: 'Condition',
      items: [
        { id: 'i_stop', content: equals('c_stop', 'v_word', 'stop') },
        { id: 'i_go', content: equals('c_go', 'v_word', 'go'), outgoingEdgeId: 'e_go' },
      ],
      ...(options.elseEdge ? { outgoingEdgeId: 'e_else' } : {}),
    },
  ]
  if (!options.elseEdge) blocks.push(textBubble('b_after', 'After the condition'))
  return typebotExport({
    name: 'Condition',
    startEdgeId: 'e_start',
    groups: [
      group('g_ask', 'Ask', 0, blocks),
      group('g_go', 'Go', 400, [textBubble('b_go', 'Went on')]),
      group('g_else', 'Else', 800, [textBubble('b_else', 'Else branch')]),
    ],
    edges: [
      { id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g_ask' } },
      { id: 'e_go', from: { blockId: 'b_cond', itemId: 'i_go' }, to: { groupId: 'g_go' } },
      ...(options.elseEdge
        ? [{ id: 'e_else', from: { blockId: 'b_cond' }, to: { groupId: 'g_else' } }]
        : []),
    ],
    variables: [{ id: 'v_word', name: 'Word', isSessionVariable: false }],
  })
}

async function say(client: ApiClient, publicId: string, word: string) {
  const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
  start.assertStatus(200)
  assert200Input(start.body())
  const reply = await client
    .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
    .json({ message: word })
  reply.assertStatus(200)
  return reply.body()
}

function assert200Input(body: any) {
  if (body.input?.id !== 'b_word')
    throw new Error(`Expected the first input: ${JSON.stringify(body)}`)
}

let who: Owner

test.group('Typebot 6.x exports', (g) => {
  g.setup(async () => {
    who = await owner()
  })

  test('version "6.1" and a later "6.7" import as v6; "7" is refused', async ({
    client,
    assert,
  }) => {
    for (const version of ['6.1', '6.7']) {
      const bot = typebotExport({
        version,
        name: `Version ${version}`,
        startEdgeId: 'e_start',
        groups: [group('g1', 'Hello', 0, [textBubble('b1', `Hello from ${version}`)])],
        edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
      })
      const imported = await importBot(client, who, bot)
      imported.assertStatus(201)
      assert.equal(imported.body().bot.name, `Version ${version}`)
      const stored = await Bot.findOrFail(imported.body().bot.id)
      assert.equal(stored.version, '6')
      const publicId = await publish(client, who, { ...bot, id: exportId(), publicId: null })
      const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
      assert.deepEqual(texts(start.body().messages), [`Hello from ${version}`])
    }
    const refused = await importBot(
      client,
      who,
      typebotExport({
        version: '7',
        startEdgeId: 'e',
        groups: [],
        edges: [],
      })
    )
    refused.assertStatus(422)
    refused.assertBodyContains({ message: "Failed to parse the file. Are you sure it's a bot?" })
  })

  test('Condition: the first holding branch without an edge ends the flow there', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, conditionBot())
    const reply = await say(client, publicId, 'stop')
    assert.deepEqual(texts(reply.messages), [])
    assert.notProperty(reply, 'input')
  })

  test('Condition: a holding branch with an edge is followed', async ({ client, assert }) => {
    const publicId = await publish(client, who, conditionBot())
    const reply = await say(client, publicId, 'go')
    assert.deepEqual(texts(reply.messages), ['Went on'])
  })

  test('Condition: no branch holds and no Else edge, the next block of the group runs', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, conditionBot())
    const reply = await say(client, publicId, 'other')
    assert.deepEqual(texts(reply.messages), ['After the condition'])
  })

  test('Condition: no branch holds, the block own edge (Else) is followed', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, conditionBot({ elseEdge: true }))
    assert.deepEqual(texts((await say(client, publicId, 'other')).messages), ['Else branch'])
    assert.deepEqual(texts((await say(client, publicId, 'stop')).messages), [])
  })
})

/** Starts with an input (text, or buttons), then greets with the answer and asks again. */
function inputFirstBot(first: 'text' | 'choice' | 'bubble' | 'wait' | 'pause', askCity = true) {
  const ask =
    first === 'choice'
      ? {
          id: 'b_first',
          type: 'choice input',
          options: { variableId: 'v_name' },
          items: [{ id: 'i_ada', content: 'Ada' }],
          outgoingEdgeId: 'e_next',
        }
      : textInput('b_first', 'v_name', 'e_next')
  const before = {
    bubble: [textBubble('b_hi', 'Hi there')],
    wait: [{ id: 'b_wait', type: 'Wait', options: { secondsToWaitFor: '1' } }],
    pause: [{ id: 'b_wait', type: 'Wait', options: { secondsToWaitFor: '1', shouldPause: true } }],
    text: [],
    choice: [],
  }[first]
  const blocks = [...before, ask]
  return typebotExport({
    name: `First ${first}`,
    startEdgeId: 'e_start',
    groups: [
      group('g1', 'Ask', 0, blocks),
      group('g2', 'Greet', 400, [
        textBubble('b_greet', 'Hello {{Name}}'),
        ...(askCity ? [textInput('b_city', 'v_city')] : []),
      ]),
    ],
    edges: [
      { id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } },
      { id: 'e_next', from: { blockId: 'b_first' }, to: { groupId: 'g2' } },
    ],
    variables: [
      { id: 'v_name', name: 'Name' },
      { id: 'v_city', name: 'City' },
    ],
  })
}

test.group('startChat with a message', (g) => {
  g.setup(async () => {
    who ??= await owner()
  })

  test('a first input with nothing shown before it is answered at once', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, inputFirstBot('text'))
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ message: 'Ada' })
    start.assertStatus(200)
    assert.deepEqual(texts(start.body().messages), ['Hello Ada'])
    assert.equal(start.body().input.id, 'b_city')
    const next = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: 'Paris' })
    assert.deepEqual(texts(next.body().messages), [])
    assert.notProperty(next.body(), 'input')
  })

  test('answered at once and the flow ends: no input is left pending in the reply', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, inputFirstBot('text', false))
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ message: 'Grace' })
    assert.deepEqual(texts(start.body().messages), ['Hello Grace'])
    assert.notProperty(start.body(), 'input')
  })

  test('a client action that awaits no reply (a wait) does not stop the answer', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, inputFirstBot('wait'))
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ message: 'Ada' })
    assert.deepEqual(texts(start.body().messages), ['Hello Ada'])
    assert.equal(start.body().input.id, 'b_city')
    assert.equal(start.body().clientSideActions[0].type, 'wait')
  })

  test('a client action awaiting a reply before the input: the message is not taken', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, who, inputFirstBot('pause'))
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ message: 'Ada' })
    assert.deepEqual(texts(start.body().messages), [])
    assert.notProperty(start.body(), 'input')
    assert.equal(start.body().clientSideActions[0].type, 'wait')
    const next = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({})
    assert.equal(next.body().input.id, 'b_first')
  })

  test('a bubble before the input: the message is not taken', async ({ client, assert }) => {
    const publicId = await publish(client, who, inputFirstBot('bubble'))
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ message: 'Ada' })
    assert.deepEqual(texts(start.body().messages), ['Hi there'])
    assert.equal(start.body().input.id, 'b_first')
  })

  test('a choice input shows its buttons: the message is not taken', async ({ client, assert }) => {
    const publicId = await publish(client, who, inputFirstBot('choice'))
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ message: 'Ada' })
    assert.deepEqual(texts(start.body().messages), [])
    assert.equal(start.body().input.id, 'b_first')
    assert.equal(start.body().input.items[0].content, 'Ada')
  })
})

test.group('Ids on import', (g) => {
  g.setup(async () => {
    who ??= await owner()
  })

  test('own id and publicId kept when free, whatever their shape', async ({ client, assert }) => {
    const suffix = Date.now().toString(36)
    for (const id of [`my-bot_${suffix}`, `B.${suffix}`, `x${suffix}`.slice(0, 6)]) {
      const bot = typebotExport({
        id,
        publicId: `Support-Bot.${id.replace(/[^A-Za-z0-9]/g, '')}`,
        startEdgeId: 'e',
        groups: [],
        edges: [],
      })
      const imported = await importBot(client, who, bot)
      imported.assertStatus(201)
      assert.equal(imported.body().bot.id, id)
      assert.equal(imported.body().bot.publicId, bot.publicId)
      ;(
        await client.get(`/api/v1/bots/${encodeURIComponent(id)}`).bearerToken(who.token)
      ).assertStatus(200)
    }
  })

  test('a taken id or publicId gets a new one', async ({ client, assert }) => {
    const id = `taken-${Date.now().toString(36)}`
    const bot = typebotExport({
      id,
      publicId: `pub-${id}`,
      startEdgeId: 'e',
      groups: [],
      edges: [],
    })
    ;(await importBot(client, who, bot)).assertStatus(201)
    const again = await importBot(client, who, bot)
    again.assertStatus(201)
    assert.notEqual(again.body().bot.id, id)
    assert.isNull(again.body().bot.publicId)
    const published = await client
      .post(`/api/v1/bots/${again.body().bot.id}/publish`)
      .bearerToken(who.token)
    assert.notEqual(published.body().bot.publicId, `pub-${id}`)
    assert.isString(published.body().bot.publicId)
  })
})
