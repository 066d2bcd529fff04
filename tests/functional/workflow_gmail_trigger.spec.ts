import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { CreateCredential } from '#actions/credentials/create_credential'
import { forgetOAuthTokens } from '#sdk/oauth'
import { startGmailStandIn } from '#tests/stand_ins/gmail'
import { closeQueue, dispatch, queueDriver, startWorkers } from '#queue/queue'
import { pluginRegistry } from '#services/plugin_registry'
import {
  pollEventTrigger,
  pruneEventDeliveries,
  resumeEventTriggerPolls,
} from '#services/workflows/event_triggers'
import { DateTime } from 'luxon'
import { pollJob } from '#services/workflows/event_trigger_jobs'
import {
  owner,
  triggerWorkflow,
  importAndPublish,
  finishedRuns,
  runCount,
} from '#tests/functional/event_trigger_fixtures'

test.group('Event triggers: Gmail', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('Gmail: polls start one run per new message, across polls and restarts; the token is refreshed', async ({
    client,
    assert,
    cleanup,
  }) => {
    const gmail = await startGmailStandIn({
      clientId: 'client-1',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-1',
      email: 'orders@example.com',
    })
    cleanup(() => gmail.close())
    const twoHoursAgo = Date.now() - 2 * 60 * 60_000
    gmail.add({
      from: 'Old <old@example.com>',
      to: 'orders@example.com',
      subject: 'Long ago',
      receivedAt: twoHoursAgo,
    })
    gmail.add({ from: 'Ann <ann@example.com>', to: 'orders@example.com', subject: 'Already here' })

    const who = await owner()
    const account = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'gmail-trigger',
      name: 'Orders mailbox',
      data: {
        // Expired: the first call is refused and the refresh token takes over.
        accessToken: 'ya29.expired',
        refreshToken: 'refresh-1',
        clientId: 'client-1',
        clientSecret: 'client-secret',
        baseUrl: gmail.baseUrl,
        tokenUrl: gmail.tokenUrl,
      },
    })
    const tested = await client
      .post(`/api/credentials/${account.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: true, message: 'Connected to orders@example.com.' })
    const refresh = gmail.requests.find((r) => r.path === '/token')!
    assert.deepEqual(Object.fromEntries(new URLSearchParams(refresh.body)), {
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: 'client-1',
      client_secret: 'client-secret',
    })
    assert.equal(gmail.requests.at(-1)!.headers.authorization, 'Bearer ya29.fresh-1')

    const id = await importAndPublish(
      client,
      who,
      triggerWorkflow(
        'gmail-trigger',
        { credentialsId: account.id, query: 'in:inbox', pollMinutes: 5 },
        'return { subject: input.subject, from: input.from }'
      )
    )
    const pollEveryMs = await (
      await pluginRegistry()
    ).exportOf<(o: unknown) => number>('gmail-trigger', 'pollEveryMs')
    assert.equal(pollEveryMs!({ pollMinutes: 5 }), 5 * 60_000)
    assert.equal(pollEveryMs!({}), 60_000)

    // The queue's repeats, seen from the driver the app uses.
    const driver = queueDriver()
    const repeats: unknown[][] = []
    const { repeat, removeRepeat } = driver
    driver.repeat = (...args) => (repeats.push(['repeat', ...args]), repeat.apply(driver, args))
    driver.removeRepeat = (...args) => (
      repeats.push(['remove', ...args]),
      removeRepeat.apply(driver, args)
    )
    cleanup(() => {
      driver.repeat = repeat
      driver.removeRepeat = removeRepeat
    })

    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(
      200
    )
    // (the in-process driver's repeat replaces the key's earlier one through removeRepeat)
    assert.deepEqual(
      repeats.filter(([kind]) => kind === 'repeat'),
      [['repeat', 'workflow.poll', { workflowId: id }, { everyMs: 5 * 60_000, key: id }]]
    )
    // The baseline: what is already there starts nothing.
    assert.deepEqual(await pollEventTrigger(id), [])
    assert.equal(await runCount(id), 0)

    const listed = gmail.requests.filter((r) => r.path === '/gmail/v1/users/me/messages').at(-1)!
    assert.match(listed.query.get('q')!, /^in:inbox after:\d+$/)
    assert.equal(listed.query.get('maxResults'), '100')

    const fresh = gmail.add({
      from: 'Bob <bob@example.com>',
      to: 'orders@example.com',
      subject: 'Order 12',
      snippet: 'Two boxes please',
    })
    gmail.add({
      from: 'orders@example.com',
      to: 'bob@example.com',
      subject: 'Sent',
      labels: ['SENT'],
    })

    // Two polls (one through the queue's job), one new message: exactly one run.
    const first = await pollEventTrigger(id)
    assert.lengthOf(first!, 1)
    const listsBefore = gmail.requests.filter((r) => r.path.endsWith('/messages')).length
    await dispatch(pollJob, { workflowId: id })
    // The queue's poll: wait until it has listed and let go of the workflow's row.
    for (let i = 0; i < 100; i++) {
      const lists = gmail.requests.filter((r) => r.path.endsWith('/messages')).length
      const state = await db.from('workflow_trigger_states').where('workflow_id', id).first()
      if (lists > listsBefore && state.lease_until === null) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    assert.isAbove(gmail.requests.filter((r) => r.path.endsWith('/messages')).length, listsBefore)
    assert.deepEqual(await pollEventTrigger(id), [])
    const runs = await finishedRuns(id, 1)
    assert.lengthOf(runs, 1)
    assert.equal(runs[0].trigger, 'event')
    assert.deepEqual(runs[0].input, {
      id: fresh.id,
      threadId: fresh.threadId,
      from: 'Bob <bob@example.com>',
      to: 'orders@example.com',
      subject: 'Order 12',
      snippet: 'Two boxes please',
      date: new Date(Number(fresh.internalDate)).toISOString(),
      labels: ['INBOX', 'UNREAD'],
    })
    assert.deepEqual(runs[0].output, { subject: 'Order 12', from: 'Bob <bob@example.com>' })
    const fetched = gmail.requests.filter((r) => r.path.startsWith('/gmail/v1/users/me/messages/'))
    assert.deepEqual(
      fetched.map((r) => r.path),
      [`/gmail/v1/users/me/messages/${fresh.id}`]
    )
    assert.equal(fetched[0].query.get('format'), 'metadata')
    assert.deepEqual(fetched[0].query.getAll('metadataHeaders'), ['From', 'To', 'Subject', 'Date'])

    // A restart: the polls are set again from the database, which remembers the message.
    forgetOAuthTokens()
    await resumeEventTriggerPolls()
    assert.deepEqual(await pollEventTrigger(id), [])
    const row = await db.from('workflow_trigger_states').where('workflow_id', id).first()
    assert.include(JSON.parse(row.state).seen, fresh.id)
    assert.equal(await runCount(id), 1)

    ;(await client.post(`/api/v1/workflows/${id}/deactivate`).bearerToken(who.token)).assertStatus(
      200
    )
    assert.deepEqual(repeats.at(-1), ['remove', 'workflow.poll', id])
    gmail.add({ from: 'Cy <cy@example.com>', to: 'orders@example.com', subject: 'Too late' })
    assert.isNull(await pollEventTrigger(id))
    assert.equal(await runCount(id), 1)
  })

  test('Gmail: a revoked refresh token fails the activation with its message', async ({
    client,
    assert,
    cleanup,
  }) => {
    const gmail = await startGmailStandIn({
      clientId: 'client-1',
      clientSecret: 'client-secret',
      refreshToken: 'refresh-1',
      email: 'orders@example.com',
    })
    cleanup(() => gmail.close())
    const who = await owner()
    const account = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'gmail-trigger',
      name: 'Revoked',
      data: {
        refreshToken: 'revoked',
        clientId: 'client-1',
        clientSecret: 'client-secret',
        baseUrl: gmail.baseUrl,
        tokenUrl: gmail.tokenUrl,
      },
    })
    const id = await importAndPublish(
      client,
      who,
      triggerWorkflow('gmail-trigger', { credentialsId: account.id }, 'return input')
    )
    const refused = await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)
    refused.assertStatus(422)
    assert.include(
      JSON.stringify(refused.body()),
      'Google refused the token refresh: Token has been expired or revoked.'
    )
    assert.isFalse(
      (await client.get(`/api/v1/workflows/${id}`).bearerToken(who.token)).body().workflow.isActive
    )
  })

  test('delivery ids older than 3 days are pruned', async ({ assert }) => {
    const workflowId = `wf-deliveries-${Date.now()}`
    const stamp = (date: Date) =>
      DateTime.fromJSDate(date).toFormat(db.connection().dialect.dateTimeFormat)
    await db.table('workflow_event_deliveries').multiInsert([
      {
        workflow_id: workflowId,
        delivery_id: 'old',
        created_at: stamp(new Date(Date.now() - 4 * 86_400_000)),
      },
      {
        workflow_id: workflowId,
        delivery_id: 'recent',
        created_at: stamp(new Date(Date.now() - 86_400_000)),
      },
    ])
    assert.isAtLeast(await pruneEventDeliveries(), 1)
    const left = await db
      .from('workflow_event_deliveries')
      .where('workflow_id', workflowId)
      .select('delivery_id')
    assert.deepEqual(
      left.map((row) => row.delivery_id),
      ['recent']
    )
  })
})
