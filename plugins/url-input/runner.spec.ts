import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

test.group('URL input parser', () => {
  test('accepts http(s) URLs and adds https:// when missing', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, 'https://example.com/path?q=1'), {
      status: 'success',
      value: 'https://example.com/path?q=1',
    })
    assert.deepEqual(await parseAnswer(parse, ' example.com '), {
      status: 'success',
      value: 'https://example.com',
    })
    for (const url of [
      'http://sub.example.co.uk',
      'www.example.org/a',
      'localhost:3000',
      'http://127.0.0.1:8080/x',
      'bücher.de',
    ]) {
      assert.equal((await parseAnswer(parse, url)).status, 'success', url)
    }
  })

  test('refuses what is not a web address', async ({ assert }) => {
    for (const url of [
      '',
      'hello',
      'hello world.com',
      'ftp://example.com',
      'javascript:alert(1)',
      'mailto:a@b.co',
      'https://',
      'https://example',
      'example.c0m',
    ]) {
      assert.equal((await parseAnswer(parse, url)).status, 'fail', url)
    }
  })
})
