import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { appUrl } from '#config/app'
import Bot from '#models/bot'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { pruneChannelDeliveries } from '#services/channels/conversation'
import { setUserPlan } from '#tests/helpers'
import { startTelegramStandIn } from '../../plugins/telegram/stand_in.js'
import { startWhatsAppStandIn } from '#tests/stand_ins/whatsapp'
import env from '#start/env'
import BotChannel from '#models/bot_channel'
import { channelSecrets } from '#services/channels/channel_secrets'
import { encryptCredentials } from '#plugins/vault'
import { owner, importBot, publish, resultsOf } from '#tests/channel_bots'

/**
 * Messaging channels end to end (docs/channels.md): a bot imported and published through
 * the REST API, connected from its settings' endpoints, and whole conversations played by
 * stand-ins of the Telegram Bot API and the WhatsApp Cloud API calling our webhooks; what
 * the bot sent is read back from the stand-ins, what it stored from the database.
 */

test.group('Messaging channels: Telegram', (group) => {
  group.each.setup(() => forgetChatLimits())

  test('a whole conversation through the Bot API: webhook, formatting, retry, buttons, dedupe', async ({
    client,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '777:right-token' })
    cleanup(() => telegram.close())
    const who = await owner()
    const botId = await importBot(client, who, {
      telegram: {
        isEnabled: true,
        sessionExpiryTimeout: 2,
        startCondition: {
          logicalOperator: 'AND',
          comparisons: [{ id: 'c1', comparisonOperator: 'Equal to', value: '/start' }],
        },
      },
    })
    await publish(client, who, botId)

    // A wrong token is refused with Telegram's own reason; nothing is stored.
    const refused = await client
      .put(`/api/v1/bots/${botId}/channels/telegram`)
      .bearerToken(who.token)
      .json({ botToken: '777:wrong', baseUrl: telegram.baseUrl })
    refused.assertStatus(422)
    assert.equal(refused.body().description, 'Telegram refused getMe: Unauthorized')
    assert.equal(refused.body().field, 'botToken')
    assert.isNull(telegram.webhook())

    // The bot is published with Telegram on: connecting registers the webhook at once.
    const connected = await client
      .put(`/api/v1/bots/${botId}/channels/telegram`)
      .bearerToken(who.token)
      .json({ botToken: '777:right-token', baseUrl: telegram.baseUrl })
    connected.assertStatus(200)
    const webhook = telegram.webhook()!
    assert.match(webhook.url, new RegExp(`^${appUrl}/api/v1/channels/telegram/[a-z0-9]+$`))
    assert.equal(connected.body().webhookUrl, webhook.url)
    assert.isNull(connected.body().lastError)
    assert.deepEqual(webhook.allowed_updates, ['message', 'callback_query'])
    assert.match(webhook.secret_token!, /^[a-f0-9]{48}$/)
    // The token never comes back.
    const listed = await client.get(`/api/v1/bots/${botId}/channels`).bearerToken(who.token)
    assert.notInclude(JSON.stringify(listed.body()), 'right-token')
    assert.notInclude(JSON.stringify(await Bot.findOrFail(botId)), 'right-token')

    const chat = { id: 4242, type: 'private' }
    const from = { id: 4242, is_bot: false, first_name: 'Ada', last_name: 'L' }
    const say = (updateId: number, text: string) =>
      telegram.deliver({
        update_id: updateId,
        message: { message_id: updateId, date: 1700000000, chat, from, text },
      })

    // The start condition holds only for /start.
    assert.equal((await say(1, 'hello')).status, 200)
    assert.lengthOf(telegram.sent, 0)
    assert.lengthOf(await resultsOf(botId), 0)

    assert.equal((await say(2, '/start')).status, 200)
    assert.deepEqual(
      telegram.sent.map((s) => [s.method, s.body.text ?? s.body.photo, s.body.parse_mode]),
      [
        [
          'sendMessage',
          'Welcome to <b>Acme</b>, see <a href="https://acme.test/">our site</a>',
          'HTML',
        ],
        ['sendPhoto', 'https://acme.test/logo.png', undefined],
        ['sendMessage', 'Your e-mail?', 'HTML'],
      ]
    )
    assert.isTrue(telegram.sent.every((s) => s.body.chat_id === 4242))

    // Telegram sends the same update again: no second turn, nothing sent twice.
    const retried = await say(2, '/start')
    assert.equal(retried.status, 200)
    assert.lengthOf(telegram.sent, 3)
    assert.lengthOf(await resultsOf(botId), 1)

    // A wrong answer gets the block's retry message, as on the web.
    await say(3, 'not a mail')
    assert.deepEqual(
      telegram.sent.slice(3).map((s) => s.body.text),
      ['That is not an e-mail.']
    )

    await say(4, 'ada@example.com')
    const question = telegram.sent.at(-1)!
    assert.equal(question.method, 'sendMessage')
    assert.equal(question.body.text, 'Which plan?')
    assert.deepEqual(question.body.reply_markup, {
      inline_keyboard: [
        [{ text: 'Free', callback_data: 'it_free' }],
        [{ text: 'Pro', callback_data: 'it_pro' }],
        [{ text: 'Team', callback_data: 'it_team' }],
        [{ text: 'Enterprise with a long name', callback_data: 'it_ent' }],
      ],
    })

    // The button press comes back as a callback query: acknowledged, then answered.
    const before = telegram.sent.length
    const pressed = await telegram.deliver({
      update_id: 5,
      callback_query: {
        id: 'cq-1',
        from,
        chat_instance: 'ci',
        data: 'it_pro',
        message: { message_id: 110, date: 1700000000, chat, text: 'Which plan?' },
      },
    })
    assert.equal(pressed.status, 200)
    assert.deepEqual(telegram.answeredQueries, ['cq-1'])
    assert.deepEqual(
      telegram.sent.slice(before).map((s) => s.body.text),
      ['You chose Pro, ada@example.com.']
    )

    // The result and its logs say where the chat happened.
    const [result] = await resultsOf(botId)
    assert.deepInclude(JSON.parse(result.device_details), { channel: 'telegram' })
    assert.isTrue(Boolean(result.has_started))
    const answers = await db.from('answers').where('result_id', result.id).orderBy('id')
    assert.deepEqual(
      answers.map((a) => a.content),
      ['ada@example.com', 'Pro']
    )
    const logs = await db.from('result_logs').where('result_id', result.id)
    assert.include(
      logs.map((l) => l.description),
      'Chat started on Telegram'
    )
    const session = await db.from('chat_sessions').where('id', result.last_chat_session_id).first()
    assert.equal(session.source, 'telegram')
    // Expiry as the bot's settings say: 2 hours.
    const expires = new Date(session.expires_at).getTime() - new Date(session.updated_at).getTime()
    assert.approximately(expires, 2 * 3_600_000, 5_000)
    const usage = await db.from('chat_usage').where('workspace_id', who.workspaceId).first()
    assert.equal(Number(usage.chats), 1)

    // Delivery ids are kept while Telegram may retry, then pruned by the daily job.
    const channelId = webhook.url.split('/').pop()!
    const kept = await db.from('channel_deliveries').where('channel_id', channelId)
    assert.lengthOf(kept, 5)
    await pruneChannelDeliveries()
    assert.lengthOf(await db.from('channel_deliveries').where('channel_id', channelId), 5)
    await pruneChannelDeliveries(new Date(Date.now() + 4 * 86_400_000))
    assert.lengthOf(await db.from('channel_deliveries').where('channel_id', channelId), 0)
  })

  test('a call without the secret token is refused; unpublishing removes the webhook', async ({
    client,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '778:token' })
    cleanup(() => telegram.close())
    const who = await owner()
    const botId = await importBot(client, who, { telegram: { isEnabled: true } })

    // Connected before publishing: the webhook waits for the publication.
    const connected = await client
      .put(`/api/v1/bots/${botId}/channels/telegram`)
      .bearerToken(who.token)
      .json({ botToken: '778:token', baseUrl: telegram.baseUrl })
    connected.assertStatus(200)
    assert.isNull(connected.body().webhookUrl)
    assert.isNull(telegram.webhook())

    await publish(client, who, botId)
    assert.isNotNull(telegram.webhook())

    const update = {
      update_id: 9,
      message: { message_id: 1, date: 1, chat: { id: 5, type: 'private' }, text: 'hi' },
    }
    assert.equal((await telegram.deliver(update, { secretToken: 'wrong' })).status, 401)
    assert.equal((await telegram.deliver(update, { secretToken: null })).status, 401)
    assert.lengthOf(telegram.sent, 0)
    assert.lengthOf(await resultsOf(botId), 0)

    ;(await client.post(`/api/v1/bots/${botId}/unpublish`).bearerToken(who.token)).assertStatus(200)
    assert.isNull(telegram.webhook())
    assert.include(
      telegram.calls.map((c) => c.method),
      'deleteWebhook'
    )
    const listed = await client.get(`/api/v1/bots/${botId}/channels`).bearerToken(who.token)
    assert.isNull(listed.body().channels[0].webhookUrl)

    // Published again with Telegram off: no webhook.
    const bot = await Bot.findOrFail(botId)
    await client
      .patch(`/api/v1/bots/${botId}`)
      .bearerToken(who.token)
      .json({ settings: { ...bot.settings, telegram: { isEnabled: false } } })
    await publish(client, who, botId)
    assert.isNull(telegram.webhook())

    // Disconnecting forgets the token.
    const removed = await client
      .delete(`/api/v1/bots/${botId}/channels/telegram`)
      .bearerToken(who.token)
    removed.assertStatus(204)
    const after = await client.get(`/api/v1/bots/${botId}/channels`).bearerToken(who.token)
    assert.isFalse(after.body().channels[0].connected)
  })
})

test.group('Messaging channels: WhatsApp', (group) => {
  group.each.setup(() => forgetChatLimits())

  test('WhatsApp needs a plan with it', async ({ client, assert }) => {
    const who = await owner('FREE')
    const botId = await importBot(client, who, { whatsApp: { isEnabled: true } })
    const refused = await client
      .put(`/api/v1/bots/${botId}/channels/whatsapp`)
      .bearerToken(who.token)
      .json({ systemUserAccessToken: 'EAAG-token', phoneNumberId: '106540352242922' })
    refused.assertStatus(403)
    assert.equal(
      refused.body().description,
      'WhatsApp is not available on your plan. Please upgrade your plan.'
    )
  })

  test('WhatsApp needs the app secret: refused without it; a channel saved without one refuses every call', async ({
    client,
    assert,
    cleanup,
  }) => {
    const phoneNumberId = '106540352242955'
    const whatsapp = await startWhatsAppStandIn({ token: 'EAAG-unsigned', phoneNumberId })
    cleanup(() => whatsapp.close())
    const who = await owner()
    const botId = await importBot(client, who, { whatsApp: { isEnabled: true } })
    await publish(client, who, botId)
    const url = `/api/v1/bots/${botId}/channels/whatsapp`
    const input = {
      systemUserAccessToken: 'EAAG-unsigned',
      phoneNumberId,
      baseUrl: whatsapp.baseUrl,
    }

    const refused = await client.put(url).bearerToken(who.token).json(input)
    refused.assertStatus(422)
    assert.equal(refused.body().field, 'appSecret')
    assert.isNull(await BotChannel.findBy('bot_id', botId))

    const connected = await client
      .put(url)
      .bearerToken(who.token)
      .json({ ...input, appSecret: 'unsigned-secret' })
    connected.assertStatus(200)
    const { callbackUrl } = connected.body()

    // As saved before the secret was required: no app secret in the stored secrets.
    const record = await BotChannel.findByOrFail('bot_id', botId)
    const withoutSecret = channelSecrets<Record<string, unknown>>(record)
    delete withoutSecret.appSecret
    const sealed = encryptCredentials(withoutSecret, env.get('ENCRYPTION_SECRET'))
    record.iv = sealed.iv
    record.data = sealed.data
    await record.save()
    const status = await client.get(`/api/v1/bots/${botId}/channels`).bearerToken(who.token)
    assert.isFalse(status.body().channels[1].hasAppSecret)

    const from = '33600000001'
    const unsigned = await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hi' }))
    assert.equal(unsigned.status, 401)
    const guessed = await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hi' }), {
      appSecret: 'unsigned-secret',
    })
    assert.equal(guessed.status, 401)
    assert.lengthOf(whatsapp.sent, 0)
  })

  test('a whole conversation through the Cloud API: handshake, signature, retry, list message', async ({
    client,
    assert,
    cleanup,
  }) => {
    const phoneNumberId = '106540352242922'
    const whatsapp = await startWhatsAppStandIn({ token: 'EAAG-system-user', phoneNumberId })
    cleanup(() => whatsapp.close())
    const who = await owner()
    const botId = await importBot(client, who, { whatsApp: { isEnabled: true } })
    await publish(client, who, botId)

    // The token is checked on the phone number's endpoint; Meta's refusal is shown.
    const refused = await client
      .put(`/api/v1/bots/${botId}/channels/whatsapp`)
      .bearerToken(who.token)
      .json({ systemUserAccessToken: 'EAAG-expired', phoneNumberId, baseUrl: whatsapp.baseUrl })
    refused.assertStatus(422)
    assert.equal(refused.body().field, 'systemUserAccessToken')
    assert.equal(
      refused.body().description,
      'WhatsApp refused the token or the phone number ID: Invalid OAuth access token - Cannot parse access token'
    )
    const none = await client.get(`/api/v1/bots/${botId}/channels`).bearerToken(who.token)
    assert.isFalse(none.body().channels[1].connected)

    const connected = await client
      .put(`/api/v1/bots/${botId}/channels/whatsapp`)
      .bearerToken(who.token)
      .json({
        systemUserAccessToken: 'EAAG-system-user',
        phoneNumberId,
        appSecret: 'meta-app-secret',
        verifyToken: 'my-verify-token',
        baseUrl: whatsapp.baseUrl,
      })
    connected.assertStatus(200)
    const { callbackUrl, verifyToken, hasAppSecret } = connected.body()
    assert.match(callbackUrl, new RegExp(`^${appUrl}/api/v1/channels/whatsapp/[a-z0-9]+$`))
    assert.equal(verifyToken, 'my-verify-token')
    assert.isTrue(hasAppSecret)
    assert.notInclude(JSON.stringify(connected.body()), 'EAAG')
    assert.notInclude(JSON.stringify(connected.body()), 'meta-app-secret')

    // Meta's subscription handshake.
    assert.deepEqual(await whatsapp.verify(callbackUrl, 'wrong-token'), {
      status: 403,
      body: 'Verification failed',
    })
    assert.deepEqual(await whatsapp.verify(callbackUrl, 'my-verify-token', '4242'), {
      status: 200,
      body: '4242',
    })

    const sign = { appSecret: 'meta-app-secret' }
    const from = '33612345678'

    // A notification not signed with the app secret is refused.
    const forged = await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hi' }), {
      signature: 'sha256=0000',
    })
    assert.equal(forged.status, 401)
    const unsigned = await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hi' }))
    assert.equal(unsigned.status, 401)
    assert.lengthOf(whatsapp.sent, 0)

    const first = whatsapp.message(from, { text: 'hi' }, 'wamid.first')
    assert.equal((await whatsapp.deliver(callbackUrl, first, sign)).status, 200)
    assert.deepEqual(
      whatsapp.sent.map((s) => [s.body.type, s.body.text?.body ?? s.body.image?.link]),
      [
        ['text', 'Welcome to *Acme*, see our site (https://acme.test/)'],
        ['image', 'https://acme.test/logo.png'],
        ['text', 'Your e-mail?'],
      ]
    )
    assert.isTrue(whatsapp.sent.every((s) => s.body.to === from && s.version === 'v21.0'))

    // Meta delivers the same message again: no second turn.
    assert.equal((await whatsapp.deliver(callbackUrl, first, sign)).status, 200)
    assert.lengthOf(whatsapp.sent, 3)

    await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'nope' }), sign)
    assert.deepEqual(
      whatsapp.sent.slice(3).map((s) => s.body.text.body),
      ['That is not an e-mail.']
    )

    await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'ada@example.com' }), sign)
    // Four choices are more than a group of 3 buttons: one list message, ids per row.
    const lists = whatsapp.sent.slice(4)
    assert.deepEqual(
      lists.map((s) => s.body.interactive),
      [
        {
          type: 'list',
          body: { text: 'Which plan?' },
          action: {
            button: 'Choose',
            sections: [
              {
                title: 'Options 1–4',
                rows: [
                  { id: 'it_free', title: 'Free' },
                  { id: 'it_pro', title: 'Pro' },
                  { id: 'it_team', title: 'Team' },
                  {
                    id: 'it_ent',
                    title: 'Enterprise with a long …',
                    description: 'Enterprise with a long name',
                  },
                ],
              },
            ],
          },
        },
      ]
    )

    await whatsapp.deliver(
      callbackUrl,
      whatsapp.message(from, { listRowId: 'it_ent', title: 'Enterprise with a long …' }),
      sign
    )
    assert.equal(
      whatsapp.sent.at(-1)!.body.text.body,
      'You chose Enterprise with a long name, ada@example.com.'
    )

    const [result] = await resultsOf(botId)
    assert.deepInclude(JSON.parse(result.device_details), { channel: 'whatsapp' })
    const session = await db.from('chat_sessions').where('id', result.last_chat_session_id).first()
    assert.equal(session.source, 'whatsapp')
    const logs = await db.from('result_logs').where('result_id', result.id)
    const started = logs.find((l) => l.description === 'Chat started on WhatsApp')
    assert.deepInclude(JSON.parse(started.details), {
      channel: 'whatsapp',
      contact: { name: 'Ada', phoneNumber: from },
    })

    // The session expired: the contact's next message starts a new chat.
    await db
      .from('chat_sessions')
      .where('id', result.last_chat_session_id)
      .update({
        expires_at: DateTime.now()
          .minus({ minutes: 1 })
          .toFormat(db.connection().dialect.dateTimeFormat),
      })
    await whatsapp.deliver(callbackUrl, whatsapp.message(from, { text: 'hello again' }), sign)
    assert.lengthOf(await resultsOf(botId), 2)
    assert.equal(whatsapp.sent.at(-1)!.body.text.body, 'Your e-mail?')

    // Downgraded to a plan without WhatsApp: messages are no longer answered.
    await setUserPlan(who.user, 'FREE')
    const sentBefore = whatsapp.sent.length
    const ignored = await whatsapp.deliver(
      callbackUrl,
      whatsapp.message(from, { text: 'ada@example.com' }),
      sign
    )
    assert.equal(ignored.status, 200)
    assert.lengthOf(whatsapp.sent, sentBefore)
  })
})
