import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'

const folder = new URL('./', import.meta.url)

test.group('Plugin Google Analytics', () => {
  test('the googleAnalytics action carries the event with variables and a numeric value', async ({
    assert,
  }) => {
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: {
        trackingId: 'G-TEST123',
        action: 'sign_up',
        category: '{{Source}}',
        label: ' form ',
        value: '{{Score}}',
      },
      variables: [
        { id: 'v1', name: 'Source', value: 'bot' },
        { id: 'v2', name: 'Score', value: '42' },
      ],
    })
    assert.deepEqual(run.errors, [])
    assert.deepEqual((run.result as any).clientSideActions, [
      {
        type: 'googleAnalytics',
        googleAnalytics: {
          trackingId: 'G-TEST123',
          action: 'sign_up',
          category: 'bot',
          label: 'form',
          value: 42,
          sendTo: undefined,
        },
      },
    ])
  })

  test('a value that is not a number is left out; an empty action sends nothing', async ({
    assert,
  }) => {
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: { action: 'x', value: 'lots' },
    })
    assert.isUndefined((run.result as any).clientSideActions[0].googleAnalytics.value)
    assert.equal(
      run.logs[0].description,
      'Google Analytics: the value "lots" is not a number, it is not sent'
    )

    const empty = await runPluginTest({ folder, surface: 'bot', options: { action: '{{None}}' } })
    assert.deepEqual(empty.errors, ['Google Analytics: the event action is empty'])
  })
})
