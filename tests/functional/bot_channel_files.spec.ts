import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { appUrl } from '#config/app'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { setUserPlan } from '#tests/helpers'
import { startTelegramStandIn } from '../../plugins/telegram/stand_in.js'
import { startWhatsAppStandIn } from '#tests/stand_ins/whatsapp'
import { readStoredFile, storedKeyOf } from '#services/storage'
import { closeQueue, startWorkers } from '#queue/queue'
import { type Owner, owner, p, shopBot, publish, resultsOf } from '#tests/channel_bots'

/** A file question (1 MB at most), then a text question taking voice notes. */
function filesBot(settings: Record<string, unknown>) {
  return {
    ...shopBot(settings),
    name: 'Claims',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          { id: 'ask-doc', type: 'text', content: { richText: [p({ text: 'Your receipt?' })] } },
          {
            id: 'doc',
            type: 'file input',
            options: { variableId: 'v_doc', sizeLimit: 1, retryMessageContent: 'Send a file.' },
          },
          { id: 'ask-note', type: 'text', content: { richText: [p({ text: 'Tell us more.' })] } },
          {
            id: 'note',
            type: 'text input',
            options: { variableId: 'v_note', audioClip: { isEnabled: true } },
          },
          { id: 'bye', type: 'text', content: { richText: [p({ text: 'Got {{Doc}} {{Note}}' })] } },
        ],
      },
    ],
    variables: [
      { id: 'v_doc', name: 'Doc' },
      { id: 'v_note', name: 'Note' },
    ],
  }
}

async function importFilesBot(client: ApiClient, who: Owner, settings: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot: filesBot(settings) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const botId = imported.body().bot.id as string
  await publish(client, who, botId)
  return botId
}

async function storedBytes(url: string) {
  const key = storedKeyOf(url)
  if (!key) throw new Error(`Not a stored file: ${url}`)
  return readStoredFile(key)
}

/**
 * A file for a question taking files is held for the window, then answered by a job
 * (docs/channels.md, "Several files at once"): waits for the reply's `count` messages.
 */
async function heldReply(sent: unknown[], count: number) {
  for (let i = 0; i < 200 && sent.length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  if (sent.length < count) throw new Error(`${sent.length} messages sent, ${count} expected`)
}

test.group('Messaging channels: files and voice notes', (group) => {
  group.each.setup(async () => {
    forgetChatLimits()
    await startWorkers()
    return () => closeQueue()
  })

  test('Telegram: getFile and the download URL, stored as the answer; size limit and plan', async ({
    client,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '779:files' })
    cleanup(() => telegram.close())
    const who = await owner()
    const botId = await importFilesBot(client, who, { telegram: { isEnabled: true } })
    ;(
      await client
        .put(`/api/v1/bots/${botId}/channels/telegram`)
        .bearerToken(who.token)
        .json({ botToken: '779:files', baseUrl: telegram.baseUrl })
    ).assertStatus(200)

    const receipt = Buffer.from('%PDF-1.4 receipt')
    telegram.addFile('doc-big', {
      path: 'documents/file_1.pdf',
      bytes: Buffer.alloc(2 * 1024 * 1024, 1),
      mimeType: 'application/pdf',
    })
    telegram.addFile('doc-1', {
      path: 'documents/file_2.pdf',
      bytes: receipt,
      mimeType: 'application/pdf',
    })
    telegram.addFile('voice-1', {
      path: 'voice/file_3.oga',
      bytes: Buffer.from('OggS voice'),
      mimeType: 'audio/ogg',
    })
    const chat = { id: 77, type: 'private' }
    const send = (updateId: number, content: Record<string, unknown>) =>
      telegram.deliver({
        update_id: updateId,
        message: { message_id: updateId, date: 1700000000, chat, ...content },
      })

    await send(1, { text: '/start' })
    assert.equal(telegram.sent.at(-1)!.body.text, 'Your receipt?')
    // A text is no file: the block's retry message.
    await send(2, { text: 'later' })
    assert.equal(telegram.sent.at(-1)!.body.text, 'Send a file.')

    // Past the block's limit (announced by Telegram): refused before any download.
    let count = telegram.sent.length
    await send(3, {
      document: {
        file_id: 'doc-big',
        file_unique_id: 'b',
        file_name: 'big.pdf',
        file_size: 2097152,
      },
    })
    await heldReply(telegram.sent, ++count)
    assert.equal(telegram.sent.at(-1)!.body.text, 'This file is too large: the limit is 1 MB.')
    assert.deepEqual(telegram.fetched, [])

    await send(4, {
      document: {
        file_id: 'doc-1',
        file_unique_id: 'd1',
        file_name: 'receipt march.pdf',
        mime_type: 'application/pdf',
        file_size: receipt.length,
      },
      caption: 'here it is',
    })
    await heldReply(telegram.sent, ++count)
    assert.deepEqual(telegram.fetched, ['getFile:doc-1', 'download:documents/file_2.pdf'])
    assert.equal(telegram.sent.at(-1)!.body.text, 'Tell us more.')

    // The voice note answers the text question that takes audio clips.
    await send(5, {
      voice: { file_id: 'voice-1', file_unique_id: 'v1', duration: 2, mime_type: 'audio/ogg' },
    })
    await heldReply(telegram.sent, ++count)
    const bye = String(telegram.sent.at(-1)!.body.text)
    const urls = bye.match(/https?:\/\/[^\s<"]+/g) ?? []
    assert.lengthOf(urls, 2)
    const [docUrl = '', noteUrl = ''] = urls
    assert.match(docUrl, new RegExp(`^${appUrl}/storage/public/results/${botId}/.+\\.pdf$`))
    assert.deepEqual(await storedBytes(docUrl), receipt)
    assert.equal((await storedBytes(noteUrl)).toString(), 'OggS voice')

    const [result] = await resultsOf(botId)
    const answers = await db.from('answers').where('result_id', result.id).orderBy('id')
    assert.deepEqual(
      answers.map((a) => a.content),
      urls
    )

    // On a plan without file upload, a file gets a clear message and no download.
    await send(6, { text: '/start' })
    assert.equal(telegram.sent.at(-1)!.body.text, 'Your receipt?')
    await setUserPlan(who.user, 'FREE')
    const before = telegram.fetched.length
    await send(8, {
      document: { file_id: 'doc-1', file_unique_id: 'd1', file_size: receipt.length },
    })
    await heldReply(telegram.sent, telegram.sent.length + 1)
    assert.equal(telegram.sent.at(-1)!.body.text, 'Files cannot be received on this bot’s plan.')
    assert.lengthOf(telegram.fetched, before)
  })

  test('WhatsApp: media id, its URL, the download with the token; a voice note as the answer', async ({
    client,
    assert,
    cleanup,
  }) => {
    const phoneNumberId = '106540352242933'
    const whatsapp = await startWhatsAppStandIn({ token: 'EAAG-files', phoneNumberId })
    cleanup(() => whatsapp.close())
    const who = await owner()
    const botId = await importFilesBot(client, who, { whatsApp: { isEnabled: true } })
    const connected = await client
      .put(`/api/v1/bots/${botId}/channels/whatsapp`)
      .bearerToken(who.token)
      .json({
        systemUserAccessToken: 'EAAG-files',
        phoneNumberId,
        appSecret: 'files-secret',
        baseUrl: whatsapp.baseUrl,
      })
    connected.assertStatus(200)
    const { callbackUrl } = connected.body()
    const signed = { appSecret: 'files-secret' }
    const from = '33698765432'
    const photo = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
    whatsapp.addMedia('1001', { bytes: photo, mimeType: 'image/jpeg' })
    whatsapp.addMedia('1002', { bytes: Buffer.from('OggS note'), mimeType: 'audio/ogg' })

    await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hi' }), signed)
    assert.equal(whatsapp.sent.at(-1)!.body.text.body, 'Your receipt?')

    await whatsapp.deliver(
      callbackUrl,
      whatsapp.message(from, { mediaId: '1001', type: 'image', caption: 'receipt' }),
      signed
    )
    await heldReply(whatsapp.sent, whatsapp.sent.length + 1)
    assert.deepEqual(whatsapp.fetched, ['lookup:1001', 'download:1001'])
    assert.equal(whatsapp.sent.at(-1)!.body.text.body, 'Tell us more.')

    await whatsapp.deliver(
      callbackUrl,
      whatsapp.message(from, { mediaId: '1002', type: 'audio', voice: true }),
      signed
    )
    await heldReply(whatsapp.sent, whatsapp.sent.length + 1)
    const bye = String(whatsapp.sent.at(-1)!.body.text.body)
    const urls = bye.match(/https?:\/\/\S+/g) ?? []
    assert.lengthOf(urls, 2)
    const [photoUrl = '', noteUrl = ''] = urls
    assert.match(photoUrl, /\.jpg$/)
    assert.match(noteUrl, /voice\.ogg$/)
    assert.deepEqual(await storedBytes(photoUrl), photo)
    assert.equal((await storedBytes(noteUrl)).toString(), 'OggS note')
  })
})
