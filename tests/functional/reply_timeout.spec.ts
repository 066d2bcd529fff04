import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { closeQueue, startWorkers, useQueueDriver } from '#queue/queue'
import { BullMQDriver } from '#queue/bullmq_driver'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { startTelegramStandIn } from '../../plugins/telegram/stand_in.js'

/**
 * Reply timeouts (docs/bots.md, "Reply timeout") end to end: the chat API's timeout call
 * refuses an early timer and takes the "No reply" path past the deadline; a messaging
 * channel takes it from a delayed queue job (in-process and BullMQ drivers) unless the
 * contact answered; analytics count the visitors who timed out per question.
 */

const p = (text: string) => ({ richText: [{ type: 'p', children: [{ text }] }] })

/** "Your name?" with a 1 s reply timeout whose "No reply" exit asks "Still there?". */
function timeoutBot(settings: Record<string, unknown> = {}) {
  return {
    version: '6',
    name: 'Reply timeout',
    groups: [
      {
        id: 'g_ask',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          { id: 'b_ask', type: 'text', content: p('Your name?') },
          {
            id: 'b_name',
            type: 'text input',
            options: { variableId: 'v_name' },
            outgoingEdgeId: 'e_answered',
            timeout: { seconds: 1, outgoingEdgeId: 'e_no_reply' },
          },
        ],
      },
      {
        id: 'g_thanks',
        title: 'Thanks',
        graphCoordinates: { x: 400, y: 0 },
        blocks: [{ id: 'b_thanks', type: 'text', content: p('Thanks {{Name}}') }],
      },
      {
        id: 'g_nudge',
        title: 'No reply',
        graphCoordinates: { x: 400, y: 300 },
        blocks: [
          { id: 'b_nudge', type: 'text', content: p('Still there?') },
          { id: 'b_email', type: 'email input', options: {} },
        ],
      },
    ],
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: -100 }, outgoingEdgeId: 'e0' },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g_ask' } },
      { id: 'e_answered', from: { blockId: 'b_name' }, to: { groupId: 'g_thanks' } },
      { id: 'e_no_reply', from: { blockId: 'b_name', timeout: true }, to: { groupId: 'g_nudge' } },
    ],
    variables: [{ id: 'v_name', name: 'Name' }],
    theme: {},
    settings,
  }
}

async function publishedBot(client: ApiClient, settings: Record<string, unknown> = {}) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `to-${Date.now()}-${Math.random()}`)).value
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot: timeoutBot(settings) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const botId = imported.body().bot.id as string
  ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)).assertStatus(200)
  const row = await db.from('bots').where('id', botId).select('public_id').first()
  return { botId, token, user, publicId: row.public_id as string }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const textsOf = (body: any) =>
  (body.messages ?? []).map((m: any) => m.content.richText?.[0]?.children?.[0]?.text)

test.group('Reply timeout: chat API', (group) => {
  group.each.setup(() => forgetChatLimits())

  test('an early timer is refused; past the deadline the "No reply" path answers', async ({
    client,
    assert,
  }) => {
    const { botId, publicId, user } = await publishedBot(client)
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    assert.deepEqual(start.body().input.timeout, { seconds: 1 })
    const sessionId = start.body().sessionId

    const early = await client
      .post(`/api/v1/sessions/${sessionId}/timeout`)
      .json({ blockId: 'b_name' })
    early.assertStatus(409)
    assert.isAbove(early.body().remainingMs, 0)
    assert.isAtMost(early.body().remainingMs, 1000)

    // The deadline is a second after the question: past it, whatever the load.
    await sleep(1100)
    const late = await client
      .post(`/api/v1/sessions/${sessionId}/timeout`)
      .json({ blockId: 'b_name' })
    late.assertStatus(200)
    assert.deepEqual(textsOf(late.body()), ['Still there?'])
    assert.equal(late.body().input.id, 'b_email')

    // Fired twice (two tabs): the second finds the question gone.
    const again = await client
      .post(`/api/v1/sessions/${sessionId}/timeout`)
      .json({ blockId: 'b_name' })
    again.assertStatus(409)

    const resultId = start.body().resultId
    const rows = await db.from('input_timeouts').where('result_id', resultId)
    assert.deepEqual(
      rows.map((row) => [row.block_id, row.group_id]),
      [['b_name', 'g_ask']]
    )
    const logs = await db.from('result_logs').where('result_id', resultId)
    assert.isTrue(logs.some((log) => /No reply within 1 s/.test(log.description)))

    // A visitor who answered, for the analytics beside the one who timed out.
    const other = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    const answered = await client
      .post(`/api/v1/sessions/${other.body().sessionId}/continueChat`)
      .json({ message: 'Ada' })
    assert.deepEqual(textsOf(answered.body()), ['Thanks Ada'])
    const stale = await client
      .post(`/api/v1/sessions/${other.body().sessionId}/timeout`)
      .json({ blockId: 'b_name' })
    stale.assertStatus(409)

    const analytics = await client.get(`/api/bots/${botId}/results/analytics`).loginAs(user)
    analytics.assertStatus(200)
    const name = analytics.body().dropOffs.find((d: any) => d.blockId === 'b_name')
    assert.equal(name.timedOut, 1)
    assert.equal(name.answered, 1)
    const email = analytics.body().dropOffs.find((d: any) => d.blockId === 'b_email')
    assert.equal(email.timedOut, 0)
  })

  test('a question without a timeout cannot be timed out', async ({ client }) => {
    const { publicId } = await publishedBot(client)
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    await sleep(1100)
    const late = await client.post(`/api/v1/sessions/${start.body().sessionId}/timeout`).json({})
    late.assertStatus(200)
    // Now on the e-mail question, which has no timeout.
    await sleep(1100)
    const none = await client.post(`/api/v1/sessions/${start.body().sessionId}/timeout`).json({})
    none.assertStatus(409)
  })
})

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

for (const driver of ['in-process', 'bullmq'] as const) {
  test.group(`Reply timeout: Telegram through the queue (${driver})`, (group) => {
    group.each.setup(async () => {
      forgetChatLimits()
      if (driver === 'bullmq') {
        useQueueDriver(
          new BullMQDriver({
            url: REDIS_URL,
            prefix: `${process.env.QUEUE_PREFIX || 'test'}-timeout-${Date.now()}`,
            closeTimeoutMs: 2000,
          })
        )
      }
      await startWorkers()
      return () => closeQueue()
    })

    async function telegramSetup(client: ApiClient, token: string) {
      const telegram = await startTelegramStandIn({ token })
      const bot = await publishedBot(client, { telegram: { isEnabled: true } })
      ;(
        await client
          .put(`/api/v1/bots/${bot.botId}/channels/telegram`)
          .bearerToken(bot.token)
          .json({ botToken: token, baseUrl: telegram.baseUrl })
      ).assertStatus(200)
      const chat = { id: 77, type: 'private' }
      const send = (updateId: number, text: string) =>
        telegram.deliver({
          update_id: updateId,
          message: { message_id: updateId, date: 1700000000, chat, text },
        })
      return { telegram, send, ...bot }
    }

    const sentTexts = (telegram: { sent: { body: any }[] }) =>
      telegram.sent.map((message) => message.body.text)

    test('no answer: the job sends the "No reply" path and records it', async ({
      client,
      assert,
      cleanup,
    }) => {
      const { telegram, send, botId } = await telegramSetup(
        client,
        `77${driver === 'bullmq' ? 2 : 1}:timeout`
      )
      cleanup(() => telegram.close())
      await send(1, '/start')
      assert.include(sentTexts(telegram), 'Your name?')
      for (let i = 0; i < 400 && !sentTexts(telegram).includes('Still there?'); i++) await sleep(25)
      assert.include(sentTexts(telegram), 'Still there?')
      const [result] = await db.from('results').where('bot_id', botId)
      const rows = await db.from('input_timeouts').where('result_id', result.id)
      assert.lengthOf(rows, 1)
      assert.equal(rows[0].block_id, 'b_name')
      // The chat goes on from the "No reply" path's question.
      await send(2, 'ada@example.com')
      const answers = await db.from('answers').where('result_id', result.id)
      assert.deepEqual(
        answers.map((answer) => [answer.block_id, answer.content]),
        [['b_email', 'ada@example.com']]
      )
    })

    test('an answer in time: the job finds the question answered and sends nothing', async ({
      client,
      assert,
      cleanup,
    }) => {
      const { telegram, send, botId } = await telegramSetup(
        client,
        `78${driver === 'bullmq' ? 2 : 1}:answered`
      )
      cleanup(() => telegram.close())
      await send(1, '/start')
      await send(2, 'Ada')
      assert.include(sentTexts(telegram), 'Thanks Ada')
      const count = telegram.sent.length
      // Well past the deadline: the job ran (or will find nothing to do).
      await sleep(2500)
      assert.lengthOf(telegram.sent, count)
      const [result] = await db.from('results').where('bot_id', botId)
      assert.lengthOf(await db.from('input_timeouts').where('result_id', result.id), 0)
    })
  })
}
