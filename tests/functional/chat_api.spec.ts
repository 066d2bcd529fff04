import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import Result from '#models/result'
import { chatFixture, chatFixtures } from '#tests/unit/engine/fixtures'
import type { StartChatResponse } from '#shared/chat/types'
import { forgetPublishedBot } from '#services/chat/bot_cache'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { type Owner, owner, publish, texts } from '#tests/functional/chat_api_fixtures'

/**
 * The chat API end to end: fixture bots imported and published through the REST API,
 * conversations through startChat / continueChat, results in the database.
 */

let shared: Owner
const publicIds = new Map<string, string>()

test.group('Chat API: fixture conversations', (group) => {
  group.setup(async () => {
    shared = await owner()
  })

  for (const fixture of chatFixtures()) {
    // The HTTP request fixture needs a stand-in; the engine unit tests cover it.
    if (fixture.file === 'http_request.json') continue
    for (const conversation of fixture.conversations) {
      if (conversation.turns.length === 0) continue
      test(`${fixture.file}: ${conversation.name}`, async ({ client, assert }) => {
        if (!publicIds.has(fixture.file)) {
          for (const linked of fixture.linkedBots) await publish(client, shared, linked)
          publicIds.set(fixture.file, (await publish(client, shared, fixture.bot)).publicId)
        }
        const publicId = publicIds.get(fixture.file)!
        const start = await client
          .post(`/api/v1/typebots/${publicId}/startChat`)
          .json({ prefilledVariables: conversation.prefilledVariables })
        start.assertStatus(200)
        const body = start.body() as StartChatResponse
        assert.isString(body.sessionId)
        assert.isString(body.resultId)
        assert.equal(body.typebot.id, fixture.bot.id)
        const first = conversation.turns[0].expect
        if (first.messages) assert.deepEqual(texts(body.messages), first.messages)
        if ('input' in first) assert.equal(body.input?.type ?? null, first.input)

        for (const [index, turn] of conversation.turns.slice(1).entries()) {
          const reply = await client
            .post(`/api/v1/sessions/${body.sessionId}/continueChat`)
            .json(turn.send === undefined ? {} : { message: turn.send })
          reply.assertStatus(200)
          const where = `turn ${index + 2}`
          if (turn.expect.messages)
            assert.deepEqual(texts(reply.body().messages), turn.expect.messages, where)
          if ('input' in turn.expect)
            assert.equal(reply.body().input?.type ?? null, turn.expect.input, where)
          if (turn.expect.actions) {
            assert.deepEqual(
              (reply.body().clientSideActions ?? []).map((a: any) => a.type),
              turn.expect.actions,
              where
            )
          }
          assert.isUndefined(reply.body().logs, 'visitors never see logs')
        }
        const last = conversation.turns.at(-1)!.expect
        const result = await Result.findOrFail(body.resultId)
        if (last.completed !== undefined) assert.equal(result.isCompleted, last.completed)
        for (const [name, value] of Object.entries(last.variables ?? {})) {
          if (value === null) continue
          assert.deepEqual(
            result.variables.find((v) => v.name === name)?.value,
            value,
            `result ${name}`
          )
        }
        for (const [name, value] of Object.entries(last.resultVariables ?? {})) {
          assert.deepEqual(result.variables.find((v) => v.name === name)?.value, value, name)
        }
      })
    }
  }
})

test.group('Chat API: sessions and results', (group) => {
  let who: Owner
  let greeting: { id: string; publicId: string }

  group.setup(async () => {
    who = await owner()
  })

  test('a conversation leaves a result with answers, and the chat is counted once', async ({
    client,
    assert,
  }) => {
    const raw = chatFixture('greeting').bot
    greeting = await publish(client, who, { ...raw, id: undefined, publicId: undefined })
    const usage = async () =>
      Number(
        (await db.from('chat_usage').where('workspace_id', who.workspaceId).first())?.chats ?? 0
      )
    const before = await usage()
    const start = await client
      .post(`/api/v1/bots/${greeting.publicId}/startChat`)
      .header(
        'user-agent',
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36'
      )
      .json({ textBubbleContentFormat: 'markdown' })
    start.assertStatus(200)
    assert.deepEqual(start.body().messages[0].content, {
      type: 'markdown',
      markdown: 'Hello! What is your name?',
    })
    const viewed = await Result.findOrFail(start.body().resultId)
    assert.isFalse(viewed.hasStarted)
    assert.equal(viewed.deviceDetails?.device, 'desktop')
    assert.equal(await usage(), before)

    const { sessionId, resultId } = start.body()
    const reply = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: 'Ada' })
    reply.assertStatus(200)
    const result = await Result.query().where('id', resultId).preload('answers').firstOrFail()
    assert.isTrue(result.hasStarted)
    assert.isTrue(result.isCompleted)
    assert.lengthOf(result.answers, 1)
    assert.equal(result.answers[0].content, 'Ada')
    assert.equal(result.answers[0].blockId, raw.groups[0].blocks[1].id)
    assert.equal(await usage(), before + 1)

    // The chat is over: a further message changes nothing.
    const after = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: 'again' })
    after.assertStatus(200)
    assert.deepEqual(after.body().messages, [])
    assert.equal(await usage(), before + 1)
  })

  test('unknown bots and sessions answer 404; bad messages 400 or 422', async ({ client }) => {
    ;(await client.post('/api/v1/typebots/nope-nope/startChat').json({})).assertStatus(404)
    ;(await client.post('/api/v1/sessions/nope/continueChat').json({ message: 'x' })).assertStatus(
      404
    )
    const start = await client.post(`/api/v1/typebots/${greeting.publicId}/startChat`).json({})
    const bad = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: { type: 'video' } })
    bad.assertStatus(400)
    // attachedFileUrls that is not a list of URLs is refused, not ignored.
    for (const attachedFileUrls of ['x', [1], { 0: 'x' }, Array(101).fill('https://a.b/c')]) {
      const wrong = await client
        .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
        .json({ message: { type: 'text', text: 'hi', attachedFileUrls } })
      wrong.assertStatus(400)
      wrong.assertBodyContains({ field: 'message.attachedFileUrls' })
    }
    ;(
      await client
        .post(`/api/v1/typebots/${greeting.publicId}/startChat`)
        .json({ textBubbleContentFormat: 'html' })
    ).assertStatus(422)
  })

  test('the chat page posts its JSON as text/plain (no CORS preflight); only chat routes read it', async ({
    client,
    assert,
  }) => {
    // A raw body: the api client's json() would set application/json.
    const asText = <
      Request extends { request: { type(t: string): unknown; send(b: string): unknown } },
    >(
      request: Request,
      body: unknown
    ) => {
      request.request.type('text/plain;charset=UTF-8')
      request.request.send(typeof body === 'string' ? body : JSON.stringify(body))
      return request
    }
    const start = await asText(client.post(`/api/v1/bots/${greeting.publicId}/startChat`), {
      textBubbleContentFormat: 'markdown',
    })
    start.assertStatus(200)
    assert.equal(start.body().messages[0].content.markdown, 'Hello! What is your name?')
    const reply = await asText(
      client.post(`/api/v1/sessions/${start.body().sessionId}/continueChat`),
      { message: 'Grace' }
    )
    reply.assertStatus(200)
    const answers = await db.from('answers').where('result_id', start.body().resultId)
    assert.deepEqual(
      answers.map((answer) => answer.content),
      ['Grace']
    )
    // The same limits as JSON: a body nested too deep is refused before parsing.
    const deep = await asText(
      client.post(`/api/v1/typebots/${greeting.publicId}/startChat`),
      '{"a":'.repeat(300) + '1' + '}'.repeat(300)
    )
    deep.assertStatus(400)
    // Elsewhere text/plain is not JSON: the body is not read, so nothing is created.
    const created = await asText(client.post('/api/v1/bots').bearerToken(who.token), {
      workspaceId: who.workspaceId,
      bot: { name: 'From text' },
    })
    assert.notEqual(created.status(), 201)
    assert.isNull(await Bot.query().where('name', 'From text').first())
  })

  test('a closed bot refuses new chats with a message', async ({ client, assert }) => {
    const bot = await publish(client, who, { ...chatFixture('jump_return').bot, id: undefined })
    await Bot.query().where('id', bot.id).update({ isClosed: true })
    forgetPublishedBot(bot.id)
    const response = await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
    response.assertStatus(403)
    assert.equal(response.body().message, 'This bot is closed')
  })

  test('allowed origins are enforced on start and continue', async ({ client, assert }) => {
    const raw = chatFixture('greeting').bot
    const bot = await publish(client, who, {
      ...raw,
      id: undefined,
      settings: { security: { allowedOrigins: ['https://shop.example.com'] } },
    })
    const refused = await client
      .post(`/api/v1/typebots/${bot.publicId}/startChat`)
      .header('origin', 'https://evil.example.com')
      .json({})
    refused.assertStatus(403)
    assert.equal(refused.body().message, 'Origin not allowed')
    const allowed = await client
      .post(`/api/v1/typebots/${bot.publicId}/startChat`)
      .header('origin', 'https://shop.example.com')
      .json({})
    allowed.assertStatus(200)
    const continued = await client
      .post(`/api/v1/sessions/${allowed.body().sessionId}/continueChat`)
      .header('origin', 'https://evil.example.com')
      .json({ message: 'x' })
    continued.assertStatus(403)
  })

  test('the monthly chat limit stops new chats with chatLimitExceededError', async ({
    client,
    assert,
  }) => {
    const other = await owner('FREE')
    const bot = await publish(client, other, { ...chatFixture('greeting').bot, id: undefined })
    const period = new Date().toISOString().slice(0, 7)
    await db
      .table('chat_usage')
      .insert({ workspace_id: other.workspaceId, period, chats: 1_000_000 })
    forgetChatLimits()
    const response = await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
    response.assertStatus(200)
    assert.deepEqual(response.body().messages, [])
    assert.isString(response.body().chatLimitExceededError)
  })

  test('expired sessions must start again', async ({ client, assert }) => {
    const start = await client.post(`/api/v1/typebots/${greeting.publicId}/startChat`).json({})
    await db
      .from('chat_sessions')
      .where('id', start.body().sessionId)
      .update({ expires_at: new Date(Date.now() - 1000) })
    const response = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: 'x' })
    response.assertStatus(404)
    assert.equal(response.body().message, 'Session expired')
  })

  test('isOnlyRegistering creates the session; the first continue starts the flow', async ({
    client,
    assert,
  }) => {
    const start = await client
      .post(`/api/v1/typebots/${greeting.publicId}/startChat`)
      .json({ isOnlyRegistering: true })
    start.assertStatus(200)
    assert.deepEqual(start.body().messages, [])
    const first = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message: 'Zoe' })
    assert.deepEqual(texts(first.body().messages).slice(0, 2), [
      'Hello! What is your name?',
      'Nice to meet you Zoe.',
    ])
  })

  test('rememberUser resumes the same result with its variables', async ({ client, assert }) => {
    const raw = chatFixture('greeting').bot
    const bot = await publish(client, who, {
      ...raw,
      id: undefined,
      settings: { general: { rememberUser: { isEnabled: true, storage: 'local' } } },
    })
    const first = await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
    await client
      .post(`/api/v1/sessions/${first.body().sessionId}/continueChat`)
      .json({ message: 'Kim' })
    const again = await client
      .post(`/api/v1/typebots/${bot.publicId}/startChat`)
      .json({ resultId: first.body().resultId })
    assert.equal(again.body().resultId, first.body().resultId)
    const reply = await client
      .post(`/api/v1/sessions/${again.body().sessionId}/continueChat`)
      .json({ message: 'Lee' })
    assert.include(texts(reply.body().messages), 'Nice to meet you Lee.')
    assert.equal(
      await Result.query()
        .where('bot_id', bot.id)
        .count('* as total')
        .then((r) => Number(r[0].$extras.total)),
      1
    )
  })

  test('the webhook block waits for its URL to be called', async ({ client, assert }) => {
    const bot = await publish(client, who, { ...chatFixture('webhook_wait').bot, id: undefined })
    const start = await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
    assert.deepEqual(texts(start.body().messages), ['Waiting for the order'])
    const action = start.body().clientSideActions[0]
    assert.equal(action.type, 'listenForWebhook')
    const { sessionId, resultId } = start.body()
    assert.include(action.listenForWebhook.url, `/results/${resultId}/executeWebhook`)

    const early = await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({})
    assert.deepEqual(early.body().messages, [])
    assert.equal(early.body().clientSideActions[0].type, 'listenForWebhook')

    const path = new URL(action.listenForWebhook.url).pathname
    const call = await client.post(path).json({ order: { id: 42 } })
    call.assertStatus(200)
    const resumed = await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({})
    assert.deepEqual(texts(resumed.body().messages), ['Order 42 received'])
    ;(await client.post(path).json({})).assertStatus(404)
  })

  test('preview runs the draft from a group, saves no result, needs a sign-in', async ({
    client,
    assert,
  }) => {
    const raw = chatFixture('conditions').bot
    const bot = await publish(client, who, { ...raw, id: undefined })
    const results = async () =>
      Number((await db.from('results').where('bot_id', bot.id).count('* as total'))[0].total)
    ;(
      await client
        .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
        .bearerToken('fc_nope')
        .json({})
    ).assertStatus(401)
    const response = await client
      .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
      .bearerToken(who.token)
      .json({ startFrom: { type: 'group', groupId: 'g_ab' } })
    response.assertStatus(200)
    assert.deepEqual(texts(response.body().messages), ['Path A'])
    assert.isUndefined(response.body().resultId)
    assert.equal(await results(), 0)

    const stranger = await owner()
    ;(
      await client
        .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
        .bearerToken(stranger.token)
        .json({})
    ).assertStatus(404)
  })

  test('the start contract: source and geo round-trip, the bot under `bot` and `typebot`', async ({
    client,
    assert,
  }) => {
    const bot = await publish(client, who, { ...chatFixture('greeting').bot, id: undefined })
    const geo = { country: 'NO', city: 'Bergen', latitude: 60.39, longitude: 5.32 }
    const start = await client
      .post(`/api/v1/typebots/${bot.publicId}/startChat`)
      .header('cf-ipcountry', 'FR')
      .json({ source: 'telegram', geo })
    start.assertStatus(200)
    assert.deepEqual(start.body().geo, geo)
    assert.deepEqual(start.body().bot, start.body().typebot)
    assert.equal(start.body().bot.id, bot.id)
    const session = await db.from('chat_sessions').where('id', start.body().sessionId).first()
    assert.equal(session.source, 'telegram')
    const result = await Result.findOrFail(start.body().resultId)
    assert.deepEqual(result.location, geo)

    // Without a geo, the proxy's country header is kept and answered.
    const fromHeader = await client
      .post(`/api/v1/typebots/${bot.publicId}/startChat`)
      .header('cf-ipcountry', 'FR')
      .json({})
    assert.deepEqual(fromHeader.body().geo, { country: 'FR' })
    ;(
      await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({ source: 'fax' })
    ).assertStatus(422)
  })

  test('preview: a bot sent by the client runs instead of the draft, under the session id it chose', async ({
    client,
    assert,
  }) => {
    const bot = await publish(client, who, { ...chatFixture('greeting').bot, id: undefined })
    const override = {
      ...chatFixture('greeting').bot,
      groups: [
        {
          id: 'g_only',
          title: 'Unsaved',
          graphCoordinates: { x: 0, y: 0 },
          blocks: [
            {
              id: 'b_only',
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: 'Not saved yet' }] }] },
            },
          ],
        },
      ],
      edges: [
        {
          id: 'e_only',
          from: { eventId: chatFixture('greeting').bot.events[0].id },
          to: { groupId: 'g_only' },
        },
      ],
    }
    const sessionId = 'clientchosen0001'
    const started = await client
      .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
      .bearerToken(who.token)
      .json({ bot: override, sessionId })
    started.assertStatus(200)
    assert.equal(started.body().sessionId, sessionId)
    assert.deepEqual(texts(started.body().messages), ['Not saved yet'])
    // The draft itself is untouched, and the id cannot be taken twice.
    const stored = await Bot.findOrFail(bot.id)
    assert.notEqual(stored.groups[0].id, 'g_only')
    ;(
      await client
        .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
        .bearerToken(who.token)
        .json({ sessionId })
    ).assertStatus(409)
    ;(
      await client
        .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
        .bearerToken(who.token)
        .json({ bot: { some: 'thing' } })
    ).assertStatus(422)
  })

  test('preview logs are returned; a loop is stopped with an error log', async ({
    client,
    assert,
  }) => {
    const bot = await publish(client, who, { ...chatFixture('loop').bot, id: undefined })
    const response = await client
      .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
      .bearerToken(who.token)
      .json({})
    response.assertStatus(200)
    assert.isTrue(
      response
        .body()
        .logs.some((log: any) => log.status === 'error' && log.description.includes('stopped'))
    )
  })
})
