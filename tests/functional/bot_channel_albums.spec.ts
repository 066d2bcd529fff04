import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { appUrl } from '#config/app'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { closeQueue, startWorkers } from '#queue/queue'
import { answerHeldMessages } from '#services/channels/jobs'
import { filesWindowMs, resumeHeldMessages } from '#services/channels/held_messages'
import { pruneChannelDeliveries } from '#services/channels/conversation'
import { readStoredFile, storedKeyOf } from '#services/storage'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { startTelegramStandIn } from '../../plugins/telegram/stand_in.js'
import { startWhatsAppStandIn } from '#tests/stand_ins/whatsapp'

/**
 * Several files sent at once on a messaging channel (docs/channels.md, "Several files at
 * once"): a Telegram album (messages sharing a media_group_id) and WhatsApp files sent
 * together are held for the window and answer the question once; a single-file question
 * takes the first; retried deliveries and competing job runs start no second turn.
 */

const p = (...children: Record<string, unknown>[]) => ({ type: 'p', children })

/** A file question (several files or one), then a name, then a closing text. */
function albumBot(isMultipleAllowed: boolean, settings: Record<string, unknown>) {
  return {
    version: '6',
    name: 'Album',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          { id: 'ask', type: 'text', content: { richText: [p({ text: 'Your photos?' })] } },
          {
            id: 'photos',
            type: 'file input',
            options: { variableId: 'v_photos', isMultipleAllowed, retryMessageContent: 'Files!' },
          },
          { id: 'ask-name', type: 'text', content: { richText: [p({ text: 'Your name?' })] } },
          {
            id: 'name',
            type: 'text input',
            options: { variableId: 'v_name', retryMessageContent: 'Your name, please.' },
          },
          {
            id: 'bye',
            type: 'text',
            content: { richText: [p({ text: 'Thanks {{Name}}: {{Photos}}' })] },
          },
        ],
      },
    ],
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: -100 }, outgoingEdgeId: 'e0' },
    ],
    edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
    variables: [
      { id: 'v_photos', name: 'Photos' },
      { id: 'v_name', name: 'Name' },
    ],
    theme: {},
    settings,
  }
}

async function publishedBot(
  client: ApiClient,
  isMultipleAllowed: boolean,
  settings: Record<string, unknown>
) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `al-${Date.now()}-${Math.random()}`)).value
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot: albumBot(isMultipleAllowed, settings) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const botId = imported.body().bot.id as string
  ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)).assertStatus(200)
  return { botId, token }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits for the held messages' job to have sent `count` messages in all. */
async function sentCount(sent: unknown[], count: number) {
  for (let i = 0; i < 200 && sent.length < count; i++) await sleep(25)
  if (sent.length < count) throw new Error(`${sent.length} messages sent, ${count} expected`)
}

async function answersOf(botId: string) {
  const [result] = await db.from('results').where('bot_id', botId)
  return db.from('answers').where('result_id', result.id).orderBy('id')
}

const urlsIn = (text: string) => text.match(/https?:\/\/[^\s<",]+/g) ?? []

async function telegramSetup(client: ApiClient, isMultipleAllowed: boolean, token: string) {
  const telegram = await startTelegramStandIn({ token })
  const bot = await publishedBot(client, isMultipleAllowed, { telegram: { isEnabled: true } })
  ;(
    await client
      .put(`/api/v1/bots/${bot.botId}/channels/telegram`)
      .bearerToken(bot.token)
      .json({ botToken: token, baseUrl: telegram.baseUrl })
  ).assertStatus(200)
  for (const n of [1, 2, 3, 4]) {
    telegram.addFile(`photo-${n}`, {
      path: `photos/file_${n}.jpg`,
      bytes: Buffer.from(`JPEG ${n}`),
      mimeType: 'image/jpeg',
    })
  }
  const chat = { id: 88, type: 'private' }
  const send = (updateId: number, content: Record<string, unknown>) =>
    telegram.deliver({
      update_id: updateId,
      message: { message_id: updateId, date: 1700000000, chat, ...content },
    })
  const photo = (n: number, extra: Record<string, unknown> = {}) => ({
    media_group_id: '13579',
    photo: [
      { file_id: `thumb-${n}`, file_unique_id: `t${n}`, width: 90, height: 90 },
      { file_id: `photo-${n}`, file_unique_id: `p${n}`, width: 800, height: 800, file_size: 6 },
    ],
    ...extra,
  })
  return { telegram, send, photo, ...bot }
}

test.group('Messaging channels: several files at once', (group) => {
  group.each.setup(async () => {
    forgetChatLimits()
    await startWorkers()
    return () => closeQueue()
  })

  test('a Telegram album of 3 photos is one answer with 3 URLs; its retries start no turn', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { telegram, send, photo, botId } = await telegramSetup(client, true, '881:album')
    cleanup(() => telegram.close())

    await send(1, { text: '/start' })
    assert.equal(telegram.sent.at(-1)!.body.text, 'Your photos?')
    const before = telegram.sent.length

    const parts = [photo(1, { caption: 'my garden' }), photo(2), photo(3)]
    for (const [i, part] of parts.entries()) {
      const answer = await send(10 + i, part)
      assert.deepEqual(answer.body, { ok: true, held: true })
    }
    // Nothing is answered while the album may still grow.
    assert.lengthOf(telegram.sent, before)
    await sentCount(telegram.sent, before + 1)
    assert.equal(telegram.sent[before].body.text, 'Your name?')
    assert.deepEqual(telegram.fetched, [
      'getFile:photo-1',
      'download:photos/file_1.jpg',
      'getFile:photo-2',
      'download:photos/file_2.jpg',
      'getFile:photo-3',
      'download:photos/file_3.jpg',
    ])

    const [answer] = await answersOf(botId)
    const urls = answer.content.split(', ')
    assert.lengthOf(urls, 3)
    for (const [i, url] of urls.entries()) {
      assert.match(url, new RegExp(`^${appUrl}/storage/public/results/${botId}/.+\\.jpg$`))
      assert.equal((await readStoredFile(storedKeyOf(url)!)).toString(), `JPEG ${i + 1}`)
    }

    // Telegram delivers the album again (our answer was slow): no second turn.
    for (const [i, part] of parts.entries()) {
      assert.deepEqual((await send(10 + i, part)).body, { ok: true, duplicate: true })
    }
    await sleep(filesWindowMs() * 2)
    assert.lengthOf(telegram.sent, before + 1)
    assert.lengthOf(await answersOf(botId), 1)

    await send(20, { text: 'Ada' })
    const bye = String(telegram.sent.at(-1)!.body.text)
    assert.deepEqual(urlsIn(bye), urls)
    assert.match(bye, /^Thanks Ada: /)
    const [result] = await db.from('results').where('bot_id', botId)
    const variables =
      typeof result.variables === 'string' ? JSON.parse(result.variables) : result.variables
    assert.equal(variables.find((v: any) => v.id === 'v_photos').value, urls.join(', '))
  })

  test('a single-file question takes the first photo of an album; the bot goes on', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { telegram, send, photo, botId } = await telegramSetup(client, false, '882:single')
    cleanup(() => telegram.close())

    await send(1, { text: '/start' })
    const before = telegram.sent.length
    await send(10, photo(1))
    await send(11, photo(2))
    // The same delivery again while the album is held: one row, no second turn.
    assert.deepEqual((await send(11, photo(2))).body, { ok: true, duplicate: true })
    await send(12, photo(3))
    await sentCount(telegram.sent, before + 1)
    await sleep(filesWindowMs())
    // The name is asked once: the other photos were not wrong answers to it.
    assert.deepEqual(
      telegram.sent.slice(before).map((message) => message.body.text),
      ['Your name?']
    )
    assert.deepEqual(telegram.fetched, ['getFile:photo-1', 'download:photos/file_1.jpg'])

    // A part of the album arriving late is not taken as an answer either.
    assert.deepEqual((await send(13, photo(4))).body, { ok: true, ignored: true })
    await send(14, { text: 'Ada' })
    const bye = String(telegram.sent.at(-1)!.body.text)
    assert.match(bye, /^Thanks Ada: /)
    const answers = await answersOf(botId)
    assert.lengthOf(answers, 2)
    assert.lengthOf(answers[0].content.split(', '), 1)
    assert.equal((await readStoredFile(storedKeyOf(answers[0].content)!)).toString(), 'JPEG 1')
    assert.equal(answers[1].content, 'Ada')
  })

  test('a message typed while files are held is answered after them, in order', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { telegram, send, photo } = await telegramSetup(client, true, '883:order')
    cleanup(() => telegram.close())

    await send(1, { text: '/start' })
    const before = telegram.sent.length
    await send(10, photo(1))
    await send(11, photo(2))
    assert.deepEqual((await send(12, { text: 'Ada' })).body, { ok: true, held: true })
    await sentCount(telegram.sent, before + 2)
    assert.equal(telegram.sent[before].body.text, 'Your name?')
    const bye = String(telegram.sent[before + 1].body.text)
    assert.match(bye, /^Thanks Ada: /)
    assert.lengthOf(urlsIn(bye), 2)
  })

  test('job runs racing for the same held files (several processes) answer them once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { telegram, send, photo, botId } = await telegramSetup(client, true, '884:race')
    cleanup(() => telegram.close())

    await send(1, { text: '/start' })
    const before = telegram.sent.length
    await send(10, photo(1))
    await send(11, photo(2))
    const [channel] = await db.from('bot_channels').where('bot_id', botId)
    await sleep(filesWindowMs())
    // Two more runs beside the queued one, as other processes' jobs would be.
    const payload = { channelId: channel.id, contactId: '88' }
    await Promise.allSettled([answerHeldMessages(payload), answerHeldMessages(payload)])
    await sentCount(telegram.sent, before + 1)
    await sleep(filesWindowMs())
    assert.lengthOf(telegram.sent, before + 1)
    const answers = await answersOf(botId)
    assert.lengthOf(answers, 1)
    assert.lengthOf(answers[0].content.split(', '), 2)
  })

  test('rows a dead job run took are taken over after a minute, not before; pruned later', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { telegram, send, photo, botId } = await telegramSetup(client, true, '885:dead')
    cleanup(() => telegram.close())
    // No worker: the queued job never runs, as when its process died.
    await closeQueue()

    await send(1, { text: '/start' })
    const before = telegram.sent.length
    await send(10, photo(1))
    const [channel] = await db.from('bot_channels').where('bot_id', botId)
    const payload = { channelId: channel.id, contactId: '88' }
    const rows = () => db.from('channel_held_messages').where('channel_id', channel.id)
    await rows().update({ claim: 'dead-run', claimed_ms: Date.now() })
    await sleep(filesWindowMs())
    await answerHeldMessages(payload)
    assert.lengthOf(telegram.sent, before)

    // At boot, a process queues the jobs of what is still held; the run takes the dead one's rows.
    await rows().update({ claimed_ms: Date.now() - 61_000 })
    await startWorkers()
    assert.isAtLeast(await resumeHeldMessages(), 1)
    await sentCount(telegram.sent, before + 1)
    assert.equal(telegram.sent.at(-1)!.body.text, 'Your name?')
    assert.lengthOf(telegram.sent, before + 1)
    assert.isNotNull((await rows())[0].done_ms)

    await pruneChannelDeliveries()
    assert.lengthOf(await rows(), 1)
    await pruneChannelDeliveries(new Date(Date.now() + 4 * 86_400_000))
    assert.lengthOf(await rows(), 0)
  })

  test('WhatsApp: two documents sent together are one answer', async ({
    client,
    assert,
    cleanup,
  }) => {
    const phoneNumberId = '106540352242977'
    const whatsapp = await startWhatsAppStandIn({ token: 'EAAG-album', phoneNumberId })
    cleanup(() => whatsapp.close())
    const { botId, token } = await publishedBot(client, true, { whatsApp: { isEnabled: true } })
    const connected = await client
      .put(`/api/v1/bots/${botId}/channels/whatsapp`)
      .bearerToken(token)
      .json({
        systemUserAccessToken: 'EAAG-album',
        phoneNumberId,
        appSecret: 'album-secret',
        baseUrl: whatsapp.baseUrl,
      })
    connected.assertStatus(200)
    const { callbackUrl } = connected.body()
    const signed = { appSecret: 'album-secret' }
    const from = '33611223344'
    whatsapp.addMedia('2001', { bytes: Buffer.from('%PDF one'), mimeType: 'application/pdf' })
    whatsapp.addMedia('2002', { bytes: Buffer.from('%PDF two'), mimeType: 'application/pdf' })

    await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hi' }), signed)
    assert.equal(whatsapp.sent.at(-1)!.body.text.body, 'Your photos?')
    const before = whatsapp.sent.length
    const first = whatsapp.message(from, {
      mediaId: '2001',
      type: 'document',
      filename: 'one.pdf',
    })
    const second = whatsapp.message(from, {
      mediaId: '2002',
      type: 'document',
      filename: 'two.pdf',
    })
    await whatsapp.deliver(callbackUrl, first, signed)
    await whatsapp.deliver(callbackUrl, second, signed)
    // Meta delivers the first again: no second turn.
    await whatsapp.deliver(callbackUrl, first, signed)
    await sentCount(whatsapp.sent, before + 1)
    await sleep(filesWindowMs())
    assert.lengthOf(whatsapp.sent, before + 1)
    assert.equal(whatsapp.sent[before].body.text.body, 'Your name?')

    const [answer] = await answersOf(botId)
    const urls = answer.content.split(', ')
    assert.lengthOf(urls, 2)
    assert.match(urls[0], /one\.pdf$/)
    assert.match(urls[1], /two\.pdf$/)
    assert.equal((await readStoredFile(storedKeyOf(urls[1])!)).toString(), '%PDF two')
    assert.deepEqual(whatsapp.fetched, [
      'lookup:2001',
      'download:2001',
      'lookup:2002',
      'download:2002',
    ])
  })
})
