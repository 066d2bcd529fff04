import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

const status = async (answer: string, options: Record<string, unknown> = {}) =>
  (await parseAnswer(parse, answer, { options })).status

test.group('Rating input parser', () => {
  test('numbers go from 0 to 10 by default', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, ' 7 '), { status: 'success', value: '7' })
    assert.equal(await status('0'), 'success')
    assert.equal(await status('10'), 'success')
    assert.equal(await status('11'), 'fail')
  })

  test('numbers follow startsAt and length, even as strings', async ({ assert }) => {
    const options = { buttonType: 'Numbers', startsAt: '1', length: '5' }
    assert.equal(await status('1', options), 'success')
    assert.equal(await status('5', options), 'success')
    assert.equal(await status('0', options), 'fail')
    assert.equal(await status('6', options), 'fail')
  })

  test('icons go from 1 to length', async ({ assert }) => {
    const options = { buttonType: 'Icons', length: 5, startsAt: 0 }
    assert.equal(await status('1', options), 'success')
    assert.equal(await status('5', options), 'success')
    assert.equal(await status('0', options), 'fail')
  })

  test('refuses what is not a whole number', async ({ assert }) => {
    for (const answer of ['', 'five', '2.5', '-1', '3 stars']) {
      assert.equal(await status(answer), 'fail', answer)
    }
  })
})
