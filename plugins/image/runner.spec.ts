import { test } from '@japa/runner'
import { run } from './runner.js'
import { runBlock } from '#sdk/testing'

test.group('Image bubble runner', () => {
  test('sends the image with its click link', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'img',
      options: { url: 'https://x.test/a.png', clickLink: { url: 'https://x.test', alt: 'A cat' } },
    })
    assert.deepEqual(result.messages, [
      {
        id: 'img',
        type: 'image',
        content: {
          url: 'https://x.test/a.png',
          clickLink: { url: 'https://x.test', alt: 'A cat' },
        },
      },
    ])
  })

  test('an empty click link is left out, alt text alone is kept', async ({ assert }) => {
    const plain = await runBlock(run, {
      blockId: 'img',
      options: { url: 'https://x.test/a.png', clickLink: { url: '', alt: '' } },
    })
    assert.deepEqual(plain.messages![0].content, { url: 'https://x.test/a.png' })
    const alt = await runBlock(run, {
      blockId: 'img',
      options: { url: 'u', clickLink: { alt: 'A' } },
    })
    assert.deepEqual(alt.messages![0].content, { url: 'u', clickLink: { alt: 'A' } })
    const empty = await runBlock(run, { blockId: 'img', options: {} })
    assert.deepEqual(empty.messages![0].content, { url: '' })
  })
})
