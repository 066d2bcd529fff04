import { test } from '@japa/runner'
import { run } from './runner.js'
import { runBlock } from '#sdk/testing'

test.group('Audio bubble runner', () => {
  test('sends the file, autoplay on by default', async ({ assert }) => {
    const result = await runBlock(run, { blockId: 'au', options: { url: 'https://x.test/a.mp3' } })
    assert.deepEqual(result.messages, [
      {
        id: 'au',
        type: 'audio',
        content: { url: 'https://x.test/a.mp3', isAutoplayEnabled: true },
      },
    ])
  })

  test('keeps autoplay off when the builder turned it off', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'au',
      options: { url: 'https://x.test/a.wav', isAutoplayEnabled: false },
    })
    assert.deepEqual(result.messages![0].content, {
      url: 'https://x.test/a.wav',
      isAutoplayEnabled: false,
    })
  })
})
