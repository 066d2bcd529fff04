import { test } from '@japa/runner'
import { run } from './runner.js'
import { runBlock } from '#sdk/testing'

test.group('Embed bubble runner', () => {
  test('sends the page with its height and the event to wait for', async ({ assert }) => {
    const waitForEvent = { isEnabled: true, name: 'booked', saveDataInVariableId: 'v1' }
    const result = await runBlock(run, {
      blockId: 'em',
      options: { url: 'https://cal.test/me', height: 600, waitForEvent },
    })
    assert.deepEqual(result.messages, [
      {
        id: 'em',
        type: 'embed',
        content: { url: 'https://cal.test/me', height: 600, waitForEvent },
      },
    ])
    // The flow pauses until the event's data comes back, saved in the variable.
    assert.isTrue(result.pause)
    assert.equal(result.saveReplyInVariableId, 'v1')
  })

  test('does not pause without an enabled event', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'em',
      options: { url: 'https://x.test', waitForEvent: { isEnabled: false, name: 'x' } },
    })
    assert.isUndefined(result.pause)
  })

  test('defaults the height to 400 and reads a substituted height', async ({ assert }) => {
    const byDefault = await runBlock(run, { blockId: 'em', options: { url: 'https://x.test' } })
    assert.deepEqual(byDefault.messages![0].content, { url: 'https://x.test', height: 400 })
    const substituted = await runBlock(run, {
      blockId: 'em',
      options: { url: 'https://x.test', height: '250' },
    })
    assert.equal((substituted.messages![0].content as any).height, 250)
  })

  test('takes the link out of pasted iframe code', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'em',
      options: { url: '<iframe width="100%" src="https://x.test/e?a=1&amp;b=2"></iframe>' },
    })
    assert.equal((result.messages![0].content as any).url, 'https://x.test/e?a=1&b=2')
  })
})
