import { test } from '@japa/runner'
import { runPluginTest, sendJson, startStandIn } from '#sdk/testing'

const folder = new URL('./', import.meta.url)
const WRITE_KEY = 'wk_test_123'

/**
 * A stand-in for Segment's tracking API as the Node SDK meets it: POST /v1/batch with Basic
 * auth (the write key as user name, no password) and `{ batch: [...], sentAt }`. Segment
 * answers 200 to a well-formed batch and 400 to a bad one; `failWith` makes every call fail
 * as an outage would.
 */
async function segmentStandIn(options: { failWith?: number } = {}) {
  return startStandIn(({ req, res, body, isJson }) => {
    if (options.failWith) return sendJson(res, options.failWith, { error: 'unavailable' })
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/batch')) {
      return sendJson(res, 404, { error: 'not found' })
    }
    if (!isJson || !Array.isArray(body?.batch)) return sendJson(res, 400, { error: 'bad batch' })
    sendJson(res, 200, {})
  })
}

const credentials = (host: string) => ({ apiKey: WRITE_KEY, host })
const batchOf = (requests: { body: any }[]) => requests.flatMap((r) => r.body.batch as any[])

test.group('Plugin segment', () => {
  test('Identify sends userId, traits and e-mail with the write key, flushed at once', async ({
    assert,
    cleanup,
  }) => {
    const segment = await segmentStandIn()
    cleanup(() => segment.close())
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      action: 'Identify',
      credentials: credentials(segment.baseUrl),
      options: {
        userId: '{{User}}',
        email: 'ada@example.com',
        traits: [
          { key: 'plan', value: 'pro' },
          { key: '', value: 'ignored' },
        ],
      },
      variables: [{ id: 'v-user', name: 'User', value: 'user-42' }],
    })
    assert.deepEqual(run.errors, [])
    assert.lengthOf(segment.requests, 1)
    const [request] = segment.requests
    assert.equal(request.path, '/v1/batch')
    const basic = Buffer.from(`${WRITE_KEY}:`).toString('base64')
    assert.equal(request.headers.authorization, `Basic ${basic}`)
    const [event] = batchOf(segment.requests)
    assert.equal(event.type, 'identify')
    assert.equal(event.userId, 'user-42')
    assert.deepEqual(event.traits, { plan: 'pro', email: 'ada@example.com' })
  })

  test('Track, Alias and Page carry their fields; a workflow node runs them too', async ({
    assert,
    cleanup,
  }) => {
    const segment = await segmentStandIn()
    cleanup(() => segment.close())
    const common = { folder, credentials: credentials(segment.baseUrl) }
    await runPluginTest({
      ...common,
      surface: 'workflow',
      action: 'Track',
      options: {
        userId: 'u1',
        eventName: 'Order placed',
        properties: [{ key: 'total', value: '42' }],
      },
    })
    await runPluginTest({
      ...common,
      surface: 'bot',
      action: 'Alias',
      options: { userId: 'u1', previousId: 'anon-7' },
    })
    await runPluginTest({
      ...common,
      surface: 'bot',
      action: 'Page',
      options: { userId: 'u1', name: 'Pricing', category: 'Docs' },
    })
    const events = batchOf(segment.requests)
    assert.deepEqual(
      events.map((event) => event.type),
      ['track', 'alias', 'page']
    )
    assert.equal(events[0].event, 'Order placed')
    assert.deepEqual(events[0].properties, { total: '42' })
    assert.equal(events[1].previousId, 'anon-7')
    assert.equal(events[2].name, 'Pricing')
    assert.equal(events[2].category, 'Docs')
  })

  test('calls missing a required id, the event name or the write key send nothing', async ({
    assert,
    cleanup,
  }) => {
    const segment = await segmentStandIn()
    cleanup(() => segment.close())
    const runs = [
      { action: 'Identify', options: { userId: ' ' } },
      { action: 'Track', options: { userId: 'u1', eventName: '' } },
      { action: 'Alias', options: { userId: 'u1' } },
      { action: 'Page', options: { name: 'Home' } },
    ]
    for (const { action, options } of runs) {
      const run = await runPluginTest({
        folder,
        surface: 'bot',
        action,
        options,
        credentials: credentials(segment.baseUrl),
      })
      assert.deepEqual(run.errors, [], action)
      assert.deepEqual(run.logs, [], action)
    }
    const noKey = await runPluginTest({
      folder,
      surface: 'bot',
      action: 'Track',
      options: { userId: 'u1', eventName: 'x' },
      credentials: { host: segment.baseUrl },
    })
    assert.deepEqual(noKey.logs, [])
    assert.lengthOf(segment.requests, 0)
  })

  test('an outage is logged as an error and the flow goes on', async ({ assert, cleanup }) => {
    const segment = await segmentStandIn({ failWith: 503 })
    cleanup(() => segment.close())
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      action: 'Track',
      options: { userId: 'u1', eventName: 'Signed up' },
      credentials: credentials(segment.baseUrl),
    })
    assert.deepEqual(run.errors, ['Segment did not accept the call'])
    assert.isAtLeast(segment.requests.length, 1)
  }).timeout(30_000)
})
