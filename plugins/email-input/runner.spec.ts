import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

test.group('Email input parser', () => {
  test('accepts addresses, lower-cased and trimmed', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, '  Ada.Lovelace+bots@Example.COM '), {
      status: 'success',
      value: 'ada.lovelace+bots@example.com',
    })
    for (const email of [
      'a@b.co',
      'first_last@sub.domain.org',
      'élodie@exemple.fr',
      "o'neil@x-y.io",
    ]) {
      assert.equal((await parseAnswer(parse, email)).status, 'success', email)
    }
  })

  test('refuses what is not an address', async ({ assert }) => {
    for (const email of [
      '',
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'ada@@example.com',
      'ada lovelace@example.com',
      'ada@exa mple.com',
      '.ada@example.com',
      'ada..l@example.com',
      'ada@-example.com',
      'ada@example.c',
      'ada@1.2.3.4',
    ]) {
      assert.equal((await parseAnswer(parse, email)).status, 'fail', email)
    }
  })
})
