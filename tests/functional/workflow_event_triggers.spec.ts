import { closeQueue, startWorkers } from '#queue/queue'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { appUrl } from '#config/app'
import { CreateCredential } from '#actions/credentials/create_credential'
import { startTelegramStandIn } from '../../plugins/telegram/stand_in.js'
import { startSlackStandIn } from '../../plugins/slack/stand_in.js'
import {
  owner,
  triggerWorkflow,
  importAndPublish,
  finishedRuns,
  runCount,
} from '#tests/functional/event_trigger_fixtures'

/**
 * Event triggers end to end: a workflow imported, published and activated through the
 * REST API, its trigger registering with a local stand-in of the service, the stand-in
 * delivering events to our event endpoint, and runs going through the real queue and
 * executor.
 */

test.group('Event triggers', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('Telegram: activation sets the webhook, updates start runs, deactivation deletes it', async ({
    client,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '123456:right-token' })
    cleanup(() => telegram.close())
    const who = await owner()
    const bot = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'telegram-trigger',
      name: 'Orders bot',
      data: { accessToken: '123456:right-token', baseUrl: telegram.baseUrl },
    })

    const tested = await client
      .post(`/api/credentials/${bot.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: true, message: 'Connected as @orders_bot.' })

    const id = await importAndPublish(
      client,
      who,
      triggerWorkflow(
        'telegram-trigger',
        { credentialsId: bot.id, message: true, callbackQuery: true },
        'return { text: input.message?.text ?? input.callback_query?.data, chat: input.message?.chat?.id ?? null }'
      )
    )
    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(
      200
    )

    const set = telegram.calls.find((call) => call.method === 'setWebhook')!
    assert.exists(set)
    assert.equal(set.token, '123456:right-token')
    assert.equal(set.body.url, `${appUrl}/api/v1/workflows/${id}/events/trigger`)
    assert.match(set.body.secret_token, /^[A-Za-z0-9_-]{32,256}$/)
    assert.deepEqual(set.body.allowed_updates, ['message', 'callback_query'])

    const update = {
      update_id: 9001,
      message: {
        message_id: 7,
        chat: { id: 55, type: 'private' },
        date: 1_700_000_000,
        text: 'hello',
      },
    }
    const delivered = await telegram.deliver(update)
    assert.equal(delivered.status, 200)
    const [run] = await finishedRuns(id, 1)
    assert.equal(delivered.body.runId, run.id)
    assert.equal(run.trigger, 'event')
    assert.equal(run.status, 'success')
    assert.deepEqual(run.input, update)
    assert.deepEqual(run.output, { text: 'hello', chat: 55 })
    // Telegram sends an update again until it gets a 2xx: the same update_id starts no run.
    const again = await telegram.deliver(update)
    assert.equal(again.status, 200)
    assert.deepEqual(again.body, { ok: true, runId: run.id, duplicate: true })
    assert.equal(await runCount(id), 1)

    // A wrong or missing secret token: 401 and no run.
    const forged = await telegram.deliver(
      { update_id: 9002, message: { text: 'x' } },
      { secretToken: 'guess' }
    )
    assert.equal(forged.status, 401)
    const anonymous = await telegram.deliver(
      { update_id: 9003, message: { text: 'x' } },
      { secretToken: null }
    )
    assert.equal(anonymous.status, 401)
    // An update type the options do not ask for is acknowledged without a run.
    const edited = await telegram.deliver({ update_id: 9004, edited_message: { text: 'x' } })
    assert.equal(edited.status, 200)
    assert.equal(edited.body.ignored, 'edited_message')
    const pressed = await telegram.deliver({
      update_id: 9005,
      callback_query: { id: 'q', data: 'buy' },
    })
    assert.equal(pressed.status, 200)
    const runs = await finishedRuns(id, 2)
    assert.lengthOf(runs, 2)
    assert.deepEqual(runs[1].output, { text: 'buy', chat: null })

    const webhookUrl = telegram.webhook()!.url
    ;(await client.post(`/api/v1/workflows/${id}/deactivate`).bearerToken(who.token)).assertStatus(
      200
    )
    assert.equal(telegram.calls.at(-1)!.method, 'deleteWebhook')
    assert.isNull(telegram.webhook())
    // The endpoint no longer takes events, even with the old secret.
    const late = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': set.body.secret_token,
      },
      body: JSON.stringify({ update_id: 9006, message: { text: 'late' } }),
    })
    assert.equal(late.status, 404)
    assert.equal(await runCount(id), 2)
    const rows = await db.from('workflow_trigger_states').where('workflow_id', id)
    assert.lengthOf(rows, 0)
  })

  test('Telegram: a refused token fails the activation with its message', async ({
    client,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '123456:right-token' })
    cleanup(() => telegram.close())
    const who = await owner()
    const bot = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'telegram-trigger',
      name: 'Wrong bot',
      data: { accessToken: '123456:wrong-token', baseUrl: telegram.baseUrl },
    })
    const tested = await client
      .post(`/api/credentials/${bot.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: false, message: 'Telegram refused getMe: Unauthorized' })

    const id = await importAndPublish(
      client,
      who,
      triggerWorkflow('telegram-trigger', { credentialsId: bot.id }, 'return input')
    )
    const refused = await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)
    refused.assertStatus(422)
    assert.include(JSON.stringify(refused.body()), 'Telegram refused getWebhookInfo: Unauthorized')
    const shown = await client.get(`/api/v1/workflows/${id}`).bearerToken(who.token)
    assert.isFalse(shown.body().workflow.isActive)
    assert.lengthOf(await db.from('workflow_trigger_states').where('workflow_id', id), 0)
  })

  test('Telegram: one active workflow per bot; editing keeps its webhook, republishing sets it again, deactivating or deleting deletes it', async ({
    client,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '123456:right-token' })
    cleanup(() => telegram.close())
    const who = await owner()
    const bot = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'telegram-trigger',
      name: 'Shared bot',
      data: { accessToken: '123456:right-token', baseUrl: telegram.baseUrl },
    })
    const workflow = triggerWorkflow('telegram-trigger', { credentialsId: bot.id }, 'return input')
    const first = await importAndPublish(client, who, workflow)
    const second = await importAndPublish(client, who, workflow)
    ;(await client.post(`/api/v1/workflows/${first}/activate`).bearerToken(who.token)).assertStatus(
      200
    )
    const refused = await client.post(`/api/v1/workflows/${second}/activate`).bearerToken(who.token)
    refused.assertStatus(422)
    assert.include(
      JSON.stringify(refused.body()),
      'This Telegram bot already starts another active workflow'
    )
    assert.equal(telegram.webhook()!.url, `${appUrl}/api/v1/workflows/${first}/events/trigger`)

    // Editing the nodes after publishing makes a draft; the published version keeps its webhook.
    const shown = (await client.get(`/api/v1/workflows/${first}`).bearerToken(who.token)).body()
      .workflow
    const moved = structuredClone(shown.blocks)
    moved[1].options = { code: 'return { changed: true }' }
    const edited = await client
      .patch(`/api/v1/workflows/${first}`)
      .bearerToken(who.token)
      .json({ blocks: moved })
    assert.equal(edited.body().workflow.status, 'DRAFT')
    assert.isTrue(edited.body().workflow.isActive)
    assert.equal(telegram.webhook()!.url, `${appUrl}/api/v1/workflows/${first}/events/trigger`)

    // Publishing the draft switches the trigger to it: the webhook is set again.
    const calls = telegram.calls.length
    ;(await client.post(`/api/v1/workflows/${first}/publish`).bearerToken(who.token)).assertStatus(
      200
    )
    assert.deepEqual(
      telegram.calls
        .slice(calls)
        .map((call) => call.method)
        .filter((method) => method !== 'getWebhookInfo'),
      ['deleteWebhook', 'setWebhook']
    )
    assert.equal(telegram.webhook()!.url, `${appUrl}/api/v1/workflows/${first}/events/trigger`)

    // Deactivating by hand deletes it.
    ;(
      await client.post(`/api/v1/workflows/${first}/deactivate`).bearerToken(who.token)
    ).assertStatus(200)
    assert.equal(telegram.calls.at(-1)!.method, 'deleteWebhook')
    assert.isNull(telegram.webhook())

    // The bot is free again; deleting the active workflow deletes the webhook too.
    ;(
      await client.post(`/api/v1/workflows/${second}/activate`).bearerToken(who.token)
    ).assertStatus(200)
    assert.equal(telegram.webhook()!.url, `${appUrl}/api/v1/workflows/${second}/events/trigger`)
    ;(await client.delete(`/api/v1/workflows/${second}`).bearerToken(who.token)).assertStatus(204)
    assert.equal(telegram.calls.at(-1)!.method, 'deleteWebhook')
    assert.isNull(telegram.webhook())
    assert.lengthOf(await db.from('workflow_trigger_states').where('workflow_id', second), 0)
  })

  test('Slack: URL verification, signed events start runs, bad signatures and stale timestamps do not', async ({
    client,
    assert,
    cleanup,
  }) => {
    const slack = await startSlackStandIn({ botToken: 'xoxb-right', signingSecret: 'shh-signing' })
    cleanup(() => slack.close())
    const who = await owner()
    const app = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'slack-trigger',
      name: 'Acme app',
      data: { signingSecret: 'shh-signing', botToken: 'xoxb-right', baseUrl: slack.baseUrl },
    })
    const tested = await client
      .post(`/api/credentials/${app.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: true, message: 'Connected to Acme as orders_bot.' })
    assert.equal(slack.calls.at(-1)!.headers.authorization, 'Bearer xoxb-right')

    const id = await importAndPublish(
      client,
      who,
      triggerWorkflow(
        'slack-trigger',
        {
          credentialsId: app.id,
          eventTypes: 'message, app_mention',
          channelId: 'C0SALES',
          ignoreBots: true,
        },
        'return { kind: input.type, text: input.event.text, channel: input.event.channel, team: input.teamId }'
      )
    )
    const url = `${appUrl}/api/v1/workflows/${id}/events/trigger`
    // Not active yet: Slack's verification gets a 404.
    assert.isFalse((await slack.verifyUrl(url)).verified)

    const callsBefore = slack.calls.length
    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(
      200
    )
    assert.equal(slack.calls[callsBefore].method, 'auth.test', 'activation checks the bot token')

    const verification = await slack.verifyUrl(url)
    assert.isTrue(verification.verified)
    assert.equal(await runCount(id), 0, 'the challenge starts no run')

    const mention = {
      type: 'app_mention',
      user: 'U1',
      text: '<@U0BOT> ship order 12',
      channel: 'C0SALES',
      ts: '1.1',
    }
    const delivered = await slack.deliver(url, mention)
    assert.equal(delivered.status, 200)
    const [run] = await finishedRuns(id, 1)
    assert.equal(delivered.body.runId, run.id)
    // Slack's retries of the same event_id (our answer was late) start no second run.
    for (const retryNum of [1, 2]) {
      const retried = await slack.redeliver(url, retryNum)
      assert.equal(retried.status, 200)
      assert.deepEqual(retried.body, { ok: true, runId: run.id, duplicate: true })
    }
    assert.equal(await runCount(id), 1)
    assert.equal(run.trigger, 'event')
    assert.deepInclude(run.input as object, {
      type: 'app_mention',
      event: mention,
      teamId: 'T0001',
      eventId: 'Ev0001',
    })
    assert.deepEqual(run.output, {
      kind: 'app_mention',
      text: '<@U0BOT> ship order 12',
      channel: 'C0SALES',
      team: 'T0001',
    })

    // Signed with another secret, or six minutes old (replayed), or unsigned: 401, no run.
    const forged = await slack.deliver(url, mention, { secret: 'not-the-secret' })
    assert.equal(forged.status, 401)
    assert.equal(forged.body.error, 'Invalid Slack signature')
    const stale = await slack.deliver(url, mention, {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    })
    assert.equal(stale.status, 401)
    assert.equal(stale.body.error, 'Stale Slack request timestamp')
    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'event_callback', event: mention }),
    })
    assert.equal(unsigned.status, 401)
    // Filtered out, answered 200 so Slack does not retry: another channel, another type, a bot.
    for (const event of [
      { type: 'message', text: 'hi', channel: 'C0OTHER' },
      { type: 'reaction_added', reaction: 'tada', item: { channel: 'C0SALES' } },
      {
        type: 'message',
        subtype: 'bot_message',
        bot_id: 'B0001',
        text: 'done',
        channel: 'C0SALES',
      },
    ]) {
      const answer = await slack.deliver(url, event)
      assert.equal(answer.status, 200)
      assert.equal(answer.body.ignored, event.type)
    }
    const message = await slack.deliver(url, {
      type: 'message',
      text: 'new order',
      channel: 'C0SALES',
      user: 'U2',
    })
    assert.equal(message.status, 200)
    const runs = await finishedRuns(id, 2)
    assert.lengthOf(runs, 2)
    assert.equal((runs[1].output as any).text, 'new order')

    ;(await client.post(`/api/v1/workflows/${id}/deactivate`).bearerToken(who.token)).assertStatus(
      200
    )
    assert.equal((await slack.deliver(url, mention)).status, 404)
    assert.equal(await runCount(id), 2)
  })

  test('Slack: a refused bot token fails the activation with its message', async ({
    client,
    assert,
    cleanup,
  }) => {
    const slack = await startSlackStandIn({ botToken: 'xoxb-right', signingSecret: 'shh-signing' })
    cleanup(() => slack.close())
    const who = await owner()
    const app = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'slack-trigger',
      name: 'Revoked',
      data: { signingSecret: 'shh-signing', botToken: 'xoxb-revoked', baseUrl: slack.baseUrl },
    })
    const tested = await client
      .post(`/api/credentials/${app.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: false, message: 'Slack refused auth.test: invalid_auth' })
    const id = await importAndPublish(
      client,
      who,
      triggerWorkflow('slack-trigger', { credentialsId: app.id }, 'return input')
    )
    const refused = await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)
    refused.assertStatus(422)
    assert.include(JSON.stringify(refused.body()), 'Slack refused auth.test: invalid_auth')
    assert.isFalse(
      (await client.get(`/api/v1/workflows/${id}`).bearerToken(who.token)).body().workflow.isActive
    )
  })

  test('the OpenAPI document describes the event endpoint and the activation refusal', async ({
    client,
    assert,
  }) => {
    const doc = (await client.get('/api/docs/openapi.json')).body()
    const events = doc.paths['/api/v1/workflows/{id}/events/{nodeId}']
    assert.deepEqual(events.post.security, [])
    assert.includeMembers(Object.keys(events.post.responses), ['200', '401', '404'])
    assert.property(doc.paths['/api/v1/workflows/{id}/activate'].post.responses, '422')
  })
})
