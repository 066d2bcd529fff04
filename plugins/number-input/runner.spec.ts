import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

const value = async (answer: string, options: Record<string, unknown> = {}) => {
  const parsed = await parseAnswer(parse, answer, { options })
  return parsed.status === 'success' ? parsed.value : undefined
}

test.group('Number input parser', () => {
  test('normalises numbers', async ({ assert }) => {
    assert.equal(await value('42'), '42')
    assert.equal(await value(' 3.50 '), '3.5')
    assert.equal(await value('+042'), '42')
    assert.equal(await value('-7'), '-7')
    assert.equal(await value('.5'), '0.5')
    assert.equal(await value('1e3'), '1000')
  })

  test('refuses what is not a plain number', async ({ assert }) => {
    for (const answer of ['', 'abc', '12abc', '0x1f', 'Infinity', '1,5', '1 000', 'NaN']) {
      assert.isUndefined(await value(answer), answer)
    }
  })

  test('applies min, max and step, even as substituted strings', async ({ assert }) => {
    const options = { min: '1', max: 10, step: '0.5' }
    assert.equal(await value('1', options), '1')
    assert.equal(await value('10', options), '10')
    assert.equal(await value('2.5', options), '2.5')
    assert.isUndefined(await value('0.5', options))
    assert.isUndefined(await value('10.5', options))
    assert.isUndefined(await value('2.25', options))
    // Floating point: 0.1 + 0.2 is still on a 0.1 step.
    assert.equal(await value('0.3', { step: 0.1 }), '0.3')
    // Steps count from the minimum.
    assert.equal(await value('3', { min: 1, step: 2 }), '3')
    assert.isUndefined(await value('4', { min: 1, step: 2 }))
  })

  test('empty or unreadable bounds are no bounds', async ({ assert }) => {
    assert.equal(await value('-100', { min: '', max: '{{Max}}', step: 'x' }), '-100')
    assert.equal(await value('5', { step: 0 }), '5')
  })
})
