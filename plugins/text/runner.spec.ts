import { test } from '@japa/runner'
import { runBlock } from '#sdk/testing'
import { plainTextToRichText, type RichTextNode } from '#sdk/runner'
import { run } from './runner.js'

const richText: RichTextNode[] = [
  {
    type: 'p',
    children: [
      { text: 'Hello ' },
      { text: 'Ada', bold: true },
      { text: ', read ' },
      { type: 'a', url: 'https://example.com/a b', children: [{ text: 'the docs', italic: true }] },
      { text: '.' },
    ],
  },
  { type: 'p', children: [{ text: '' }] },
  { type: 'p', children: [{ text: 'Bye', underline: true }] },
]

test.group('Text bubble runner', () => {
  test('sends rich text', async ({ assert }) => {
    const result = await runBlock(run, { blockId: 'b1', options: { richText } })
    assert.deepEqual(result.messages, [
      { id: 'b1', type: 'text', content: { type: 'richText', richText } },
    ])
  })

  test('sends markdown when the client asked for it', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'b1',
      options: { html: '<p>Hi <b>there</b></p>' },
      textBubbleContentFormat: 'markdown',
    })
    assert.deepEqual(result.messages, [
      { id: 'b1', type: 'text', content: { type: 'markdown', markdown: 'Hi **there**' } },
    ])
  })

  test('plain text content becomes rich text', async ({ assert }) => {
    const result = await runBlock(run, { blockId: 'b1', options: { plainText: 'a\nb' } })
    assert.deepEqual(result.messages![0].content, {
      type: 'richText',
      richText: plainTextToRichText('a\nb'),
    })
  })
})
