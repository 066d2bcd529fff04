import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'
import { CHAT_NOT_FOUND, startTelegramStandIn } from './stand_in.js'

const folder = new URL('./', import.meta.url)
const TOKEN = '123456:test-token'

/** The Telegram action node against the Bot API stand-in (stand_in.ts). */
test.group('Plugin telegram (workflow actions)', (group) => {
  let telegram: Awaited<ReturnType<typeof startTelegramStandIn>>
  group.each.setup(async () => {
    telegram = await startTelegramStandIn({ token: TOKEN })
    return () => telegram.close()
  })
  const credentials = () => ({ accessToken: TOKEN, baseUrl: telegram.baseUrl })

  test('Send a message: chat id as a number, parse mode, reply, silent, no preview', async ({
    assert,
  }) => {
    const run = await runPluginTest({
      folder,
      surface: 'workflow',
      action: 'Send a message',
      credentials: credentials(),
      options: {
        chatId: '{{Chat}}',
        text: '<b>Order</b> {{Order}} shipped',
        parseMode: 'HTML',
        replyToMessageId: '7',
        disableNotification: true,
        disableWebPagePreview: true,
      },
      variables: [
        { id: 'v-chat', name: 'Chat', value: '-100123' },
        { id: 'v-order', name: 'Order', value: 'A-42' },
      ],
    })
    assert.deepEqual(run.errors, [])
    assert.deepEqual(telegram.sent, [
      {
        method: 'sendMessage',
        body: {
          chat_id: -100123,
          text: '<b>Order</b> A-42 shipped',
          parse_mode: 'HTML',
          disable_notification: true,
          reply_parameters: { message_id: 7 },
          link_preview_options: { is_disabled: true },
        },
      },
    ])
    assert.deepInclude(run.output as object, { messageId: 101, chatId: -100123 })
  })

  test('Send a photo and a document with captions; @channel names stay text', async ({
    assert,
  }) => {
    const common = { folder, surface: 'workflow' as const, credentials: credentials() }
    const photo = await runPluginTest({
      ...common,
      action: 'Send a photo',
      options: {
        chatId: '@orders',
        photo: 'https://example.com/a.png',
        caption: 'New',
        parseMode: 'Markdown',
      },
    })
    const document = await runPluginTest({
      ...common,
      action: 'Send a document',
      options: { chatId: '42', document: 'https://example.com/invoice.pdf' },
    })
    assert.deepEqual([...photo.errors, ...document.errors], [])
    assert.deepEqual(
      telegram.sent.map(({ method, body }) => [
        method,
        body.chat_id,
        body.caption,
        body.parse_mode,
      ]),
      [
        ['sendPhoto', '@orders', 'New', 'Markdown'],
        ['sendDocument', 42, undefined, undefined],
      ]
    )
    assert.equal(telegram.sent[0].body.photo, 'https://example.com/a.png')
  })

  test("Telegram's refusals and empty fields fail the node with the reason", async ({ assert }) => {
    const common = { folder, surface: 'workflow' as const, credentials: credentials() }
    const unknownChat = await runPluginTest({
      ...common,
      action: 'Send a message',
      options: { chatId: String(CHAT_NOT_FOUND), text: 'hi' },
    })
    assert.deepEqual(unknownChat.errors, [
      'Telegram refused sendMessage: Bad Request: chat not found',
    ])
    const empty = await runPluginTest({
      ...common,
      action: 'Send a message',
      options: { chatId: '42', text: '{{Nothing}}' },
      variables: [{ id: 'v', name: 'Nothing', value: null }],
    })
    assert.deepEqual(empty.errors, ['Telegram: the text is empty'])
    const longCaption = await runPluginTest({
      ...common,
      action: 'Send a photo',
      options: { chatId: '42', photo: 'x', caption: 'c'.repeat(1025) },
    })
    assert.match(longCaption.errors[0], /caption has 1025 characters/)
    const wrongToken = await runPluginTest({
      ...common,
      credentials: { accessToken: 'nope', baseUrl: telegram.baseUrl },
      action: 'Send a message',
      options: { chatId: '42', text: 'hi' },
    })
    assert.deepEqual(wrongToken.errors, ['Telegram refused sendMessage: Unauthorized'])
    assert.lengthOf(telegram.sent, 0)
  })
})
