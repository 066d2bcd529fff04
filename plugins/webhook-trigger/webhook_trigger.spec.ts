import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'
import { acceptsCall, webhookInput } from './runner.js'

const folder = new URL('./', import.meta.url)

test.group('Webhook trigger', () => {
  test('method and secret checks', ({ assert }) => {
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

  test('the run input leaves the secret out; the output is the call', async ({ assert }) => {
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
    const run = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { method: 'POST' },
      input,
    })
    assert.deepEqual(run.output, input)
  })
})
