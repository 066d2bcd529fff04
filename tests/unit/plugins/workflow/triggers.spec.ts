import { test } from '@japa/runner'
import { acceptsCall, webhookInput } from '../../../../plugins/webhook-trigger/runner.js'
import { runNode } from './node_context.js'

test.group('Workflow triggers', () => {
  test('manual trigger: the input as it is, else the test input', async ({ assert }) => {
    const given = await runNode('manual-trigger', { testInput: '{"a": 1}' }, { input: { b: 2 } })
    assert.deepEqual(given.result.output, { b: 2 })
    const fallback = await runNode('manual-trigger', { testInput: '{"a": 1}' })
    assert.deepEqual(fallback.result.output, { a: 1 })
    const none = await runNode('manual-trigger', {})
    assert.deepEqual(none.result.output, {})
    const broken = await runNode('manual-trigger', { testInput: '{a:' })
    assert.deepEqual(broken.errors, ['Manual trigger: the test input is not valid JSON'])
  })

  test('webhook trigger: method and secret checks', ({ assert }) => {
    const call = { method: 'POST', headers: {}, query: {} }
    assert.deepEqual(acceptsCall({}, call), { ok: true })
    assert.deepEqual(acceptsCall({ method: 'GET' }, call), { ok: false, status: 405 })
    assert.deepEqual(acceptsCall({ method: 'POST', secret: 's3cret' }, call), {
      ok: false,
      status: 401,
    })
    assert.deepEqual(
      acceptsCall({ secret: 's3cret' }, { ...call, headers: { 'X-Webhook-Secret': 's3cret' } }),
      { ok: true }
    )
    assert.deepEqual(acceptsCall({ secret: 's3cret' }, { ...call, query: { secret: 's3cret' } }), {
      ok: true,
    })
    assert.deepEqual(
      acceptsCall({ secret: 's3cret' }, { ...call, headers: { 'x-webhook-secret': 's3cre' } }),
      { ok: false, status: 401 }
    )
    assert.deepEqual(acceptsCall({ method: 'GET' }, { ...call, method: 'get' }), { ok: true })
  })

  test('webhook trigger: the run input leaves the secret out; the output is the call', async ({
    assert,
  }) => {
    const input = webhookInput({
      method: 'post',
      headers: {
        'X-Webhook-Secret': 'x',
        'Content-Type': 'application/json',
        'x-list': ['a', 'b'],
      },
      query: { secret: 'x', page: '2' },
      body: { id: 1 },
    })
    assert.deepEqual(input, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-list': 'a, b' },
      query: { page: '2' },
      body: { id: 1 },
    })
    const { result } = await runNode(
      'webhook-trigger',
      { method: 'POST' },
      { input, trigger: 'webhook' }
    )
    assert.deepEqual(result.output, input)
  })

  test('schedule trigger: the tick time, or now', async ({ assert }) => {
    const tick = await runNode(
      'schedule-trigger',
      { mode: 'daily', hour: 9, minute: 30 },
      { input: { scheduledAt: '2030-03-04T09:30:00Z' }, trigger: 'schedule' }
    )
    assert.deepEqual(tick.result.output, {
      timestamp: '2030-03-04T09:30:00.000Z',
      schedule: {
        mode: 'daily',
        minutesInterval: 1,
        hour: 9,
        minute: 30,
        dayOfWeek: 1,
        dayOfMonth: 1,
      },
    })
    const now = await runNode('schedule-trigger', {})
    assert.approximately(Date.parse((now.result.output as any).timestamp), Date.now(), 5000)
  })
})
