import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'

const folder = new URL('./', import.meta.url)
const run = (options: Record<string, unknown>, input?: unknown) =>
  runPluginTest({ folder, surface: 'workflow', options, input })

test.group('Manual trigger', () => {
  test('the input as it is, else the test input', async ({ assert }) => {
    const given = await run({ testInput: '{"a": 1}' }, { b: 2 })
    assert.deepEqual(given.output, { b: 2 })
    const fallback = await run({ testInput: '{"a": 1}' })
    assert.deepEqual(fallback.output, { a: 1 })
    const none = await run({})
    assert.deepEqual(none.output, {})
    const broken = await run({ testInput: '{a:' })
    assert.deepEqual(broken.errors, ['Manual trigger: the test input is not valid JSON'])
  })
})
