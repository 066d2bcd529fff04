import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import Workspace from '#models/workspace'
import CreateWorkspace from '#actions/workspaces/create_workspace'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { flushAnalytics, track } from '#services/analytics/analytics'
import { putEnv } from '#tests/billing_helpers'
import {
  createUser,
  firstWorkspaceOf,
  lastMagicLink,
  oneGroupExport,
  publishThroughApi,
  setUserPlan,
  textBubble,
  uniqueEmail,
} from '#tests/helpers'
import { collectAnalytics } from '#tests/stand_ins/posthog'

/**
 * Product analytics (docs/analytics.md): each event leaves once, from the action that causes
 * it, to the PostHog-compatible collector the environment names.
 */

test.group('Analytics events', () => {
  test('signing up: one "User created", one "Workspace created", one "User logged in"', async ({
    client,
    assert,
    cleanup,
  }) => {
    const posthog = await collectAnalytics(cleanup)
    const email = uniqueEmail('signup')
    ;(
      await client.post('/register').form({ email, name: 'Ada' }).withCsrfToken().redirects(0)
    ).assertStatus(302)
    await flushAnalytics()
    assert.deepEqual(posthog.events, [], 'asking for the link is not a sign-up yet')

    const { path } = await lastMagicLink(email)
    ;(await client.get(path).redirects(0)).assertStatus(302)
    await flushAnalytics()
    const user = (await new FindOrCreateUser().handle(email)).user
    const workspace = await firstWorkspaceOf(user)
    assert.deepEqual(
      posthog.events.map((event) => [event.event, event.distinct_id]),
      [
        ['User created', user.id],
        ['Workspace created', user.id],
        ['User logged in', user.id],
      ]
    )
    assert.equal(posthog.named('Workspace created')[0].properties.workspaceId, workspace.id)
    assert.deepEqual(posthog.named('Workspace created')[0].properties.$groups, {
      workspace: workspace.id,
    })
  })

  test('bots: created, published (first time and again), branding removed once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const posthog = await collectAnalytics(cleanup)
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, 'analytics')).value
    await posthog.forget()

    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({
        workspaceId: workspace.id,
        bot: {
          ...oneGroupExport('analyticsbot01', 'Counted', [textBubble('b1', 'Hi')]),
          settings: { general: { isBrandingEnabled: true } },
        },
      })
    imported.assertStatus(201)
    const id = imported.body().bot.id as string
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)

    const bot = await Bot.findOrFail(id)
    const noBadge = {
      ...bot.settings,
      general: { ...(bot.settings as any).general, isBrandingEnabled: false },
    }
    for (let i = 0; i < 2; i++) {
      ;(
        await client.patch(`/api/v1/bots/${id}`).bearerToken(token).json({ settings: noBadge })
      ).assertStatus(200)
    }
    await flushAnalytics()

    assert.deepEqual(
      posthog.events.map((event) => [event.event, event.properties.botId]),
      [
        ['Bot created', id],
        ['Bot published', id],
        ['Bot published', id],
        ['Branding removed', id],
      ]
    )
    assert.deepEqual(
      posthog.named('Bot published').map((event) => event.properties.firstTime),
      [true, false]
    )
    for (const event of posthog.events) {
      assert.equal(event.distinct_id, user.id)
      assert.equal(event.properties.workspaceId, workspace.id)
    }
  })

  test('an admin suspending a workspace sends "Workspace quarantined"', async ({
    client,
    assert,
    cleanup,
  }) => {
    const posthog = await collectAnalytics(cleanup)
    // ADMIN_EMAILS=admin@example.com in .env.test
    const boss = (await new FindOrCreateUser().handle('admin@example.com')).user
    const workspace = await firstWorkspaceOf(await createUser())
    await posthog.forget()
    const suspend = (suspended: boolean) =>
      client
        .put(`/admin/workspaces/${workspace.id}/suspended`)
        .json({ suspended })
        .loginAs(boss)
        .withCsrfToken()
        .redirects(0)
    ;(await suspend(true)).assertStatus(302)
    ;(await suspend(true)).assertStatus(302)
    ;(await suspend(false)).assertStatus(302)
    await flushAnalytics()
    assert.deepEqual(
      posthog.events.map((event) => [event.event, event.properties.workspaceId, event.distinct_id]),
      [['Workspace quarantined', workspace.id, boss.id]]
    )
  })

  test('a collector that fails or a sink turned off never fails the action', async ({
    client,
    assert,
    cleanup,
  }) => {
    const posthog = await collectAnalytics(cleanup)
    posthog.failWith(500)
    const email = uniqueEmail('failing')
    ;(await client.post('/register').form({ email }).withCsrfToken().redirects(0)).assertStatus(302)
    ;(await client.get((await lastMagicLink(email)).path).redirects(0)).assertStatus(302)
    await flushAnalytics()
    assert.deepEqual(posthog.events, [])

    posthog.failWith(null)
    const restore = putEnv({ ANALYTICS_SINK: 'off' })
    track({ name: 'User logged in', userId: 'nobody' })
    await flushAnalytics()
    restore()
    await flushAnalytics()
    assert.deepEqual(posthog.events, [])
  })

  test('a plan limit met sends "Limit reached"; the chat limit once, not for every chat refused', async ({
    client,
    assert,
    cleanup,
  }) => {
    const posthog = await collectAnalytics(cleanup)
    const user = await createUser()
    await posthog.forget()
    // FREE: one workspace of one's own.
    const refusal = await new CreateWorkspace().handle(user, { name: 'Second' }).catch((e) => e)
    assert.instanceOf(refusal, Error, String(refusal?.message ?? refusal))
    await flushAnalytics()
    assert.deepEqual(
      posthog.events.map((event) => [event.event, event.distinct_id, event.properties.limit]),
      [['Limit reached', user.id, 'multipleWorkspace']]
    )

    posthog.events.length = 0
    const publicId = await publishThroughApi(
      client,
      oneGroupExport(
        'limitbot000001',
        'Full',
        [textBubble('b1', 'Hi'), { id: 'b2', type: 'text input', options: { variableId: 'v1' } }],
        [{ id: 'v1', name: 'Name' }]
      )
    )
    const bot = await Bot.findByOrFail('publicId', publicId)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    workspace.plan = 'FREE'
    await workspace.save()
    const period = new Date().toISOString().slice(0, 7)
    await db.table('chat_usage').insert({ workspace_id: bot.workspaceId, period, chats: 200 })
    forgetChatLimits()
    for (const name of ['Ada', 'Grace']) {
      const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
      await client
        .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
        .json({ message: name })
    }
    await flushAnalytics()
    assert.deepEqual(
      posthog
        .named('Limit reached')
        .map((event) => [event.properties.workspaceId, event.properties.limit]),
      [[bot.workspaceId, 'conversations']]
    )
  })

  test('new results are counted per workspace into one "Results collected"', async ({
    client,
    assert,
    cleanup,
  }) => {
    const posthog = await collectAnalytics(cleanup)
    const publicId = await publishThroughApi(
      client,
      oneGroupExport('resultsbot0001', 'Counted', [textBubble('b1', 'Hi')])
    )
    const bot = await Bot.findByOrFail('publicId', publicId)
    await posthog.forget()
    for (let i = 0; i < 3; i++) {
      ;(await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})).assertStatus(200)
    }
    await flushAnalytics()
    assert.deepEqual(
      posthog
        .named('Results collected')
        .map((event) => [event.properties.workspaceId, event.properties.total]),
      [[bot.workspaceId, 3]]
    )
  })
})
