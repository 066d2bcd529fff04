import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'

const folder = new URL('./', import.meta.url)

test.group('Plugin Pixel', () => {
  test('a standard event with its parameters (empty entries skipped)', async ({ assert }) => {
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: {
        pixelId: '123456789012345',
        eventType: 'Purchase',
        params: [
          { key: 'value', value: '{{Total}}' },
          { key: 'currency', value: 'EUR' },
          { key: '', value: 'ignored' },
        ],
      },
      variables: [{ id: 'v1', name: 'Total', value: '19.90' }],
    })
    assert.deepEqual(run.errors, [])
    assert.deepEqual((run.result as any).clientSideActions, [
      {
        type: 'pixel',
        pixel: {
          pixelId: '123456789012345',
          eventType: 'Purchase',
          name: undefined,
          params: [
            { key: 'value', value: '19.90' },
            { key: 'currency', value: 'EUR' },
          ],
        },
      },
    ])
  })

  test('a custom event needs its name', async ({ assert }) => {
    const named = await runPluginTest({
      folder,
      surface: 'bot',
      options: { eventType: 'Custom', name: 'QuizDone' },
    })
    assert.equal((named.result as any).clientSideActions[0].pixel.name, 'QuizDone')
    const nameless = await runPluginTest({
      folder,
      surface: 'bot',
      options: { eventType: 'Custom' },
    })
    assert.deepEqual(nameless.errors, ['Pixel: the custom event has no name'])
  })
})
