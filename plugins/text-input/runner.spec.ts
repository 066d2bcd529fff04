import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

test.group('Text input parser', () => {
  test('accepts any non-empty text, trimmed', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, '  Hello  '), { status: 'success', value: 'Hello' })
    assert.deepEqual(await parseAnswer(parse, 'line 1\nline 2', { options: { isLong: true } }), {
      status: 'success',
      value: 'line 1\nline 2',
    })
  })

  test('refuses an empty answer', async ({ assert }) => {
    assert.equal((await parseAnswer(parse, '')).status, 'fail')
    assert.equal((await parseAnswer(parse, '  \n ')).status, 'fail')
    assert.equal((await parseAnswer(parse, { text: '', attachedFileUrls: [] })).status, 'fail')
  })

  test('passes attachments through; files alone are an answer', async ({ assert }) => {
    const urls = ['https://files.test/a.pdf', 'https://files.test/b.png']
    assert.deepEqual(await parseAnswer(parse, { text: 'See attached', attachedFileUrls: urls }), {
      status: 'success',
      value: 'See attached',
      attachedFileUrls: urls,
    })
    assert.deepEqual(await parseAnswer(parse, { text: '', attachedFileUrls: urls }), {
      status: 'success',
      value: 'https://files.test/a.pdf, https://files.test/b.png',
      attachedFileUrls: urls,
    })
  })
})
