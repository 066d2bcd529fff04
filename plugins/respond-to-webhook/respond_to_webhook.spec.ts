import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'

const folder = new URL('./', import.meta.url)
/** What the node asks the webhook call to answer. */
const respondOf = (run: { result: unknown }) => (run.result as { respond?: unknown }).respond

test.group('Respond to webhook', () => {
  test('JSON or text body, headers, the input when empty', async ({ assert }) => {
    const json = await runPluginTest({
      folder,
      surface: 'workflow',
      options: {
        statusCode: 201,
        headers: [{ key: 'X-Run', value: '{{$input.id}}' }],
        body: '{"received": "{{$input.id}}"}',
      },
      trigger: 'webhook',
      input: { id: 'r1' },
      variables: [{ id: '{{$input.id}}', name: '$input.id', value: 'r1' }],
    })
    assert.deepEqual(respondOf(json), {
      statusCode: 201,
      headers: { 'X-Run': 'r1' },
      body: { received: 'r1' },
    })
    assert.deepEqual(json.logs, [])

    const text = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { body: 'Thanks!' },
      trigger: 'webhook',
    })
    assert.deepEqual(respondOf(text), { statusCode: 200, body: 'Thanks!' })

    const empty = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { statusCode: 202 },
      input: { a: 1 },
    })
    assert.deepEqual(respondOf(empty), { statusCode: 202, body: { a: 1 } })
    assert.match(empty.logs[0].description, /not started by a webhook call/)
  })
})
