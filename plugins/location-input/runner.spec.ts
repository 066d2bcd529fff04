import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

test.group('Location input parser', () => {
  test('accepts "latitude, longitude", normalised', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, '48.8566, 2.3522'), {
      status: 'success',
      value: '48.8566, 2.3522',
    })
    assert.deepEqual(await parseAnswer(parse, ' -33.86880,151.20930 '), {
      status: 'success',
      value: '-33.8688, 151.2093',
    })
    assert.deepEqual(await parseAnswer(parse, '90, -180'), { status: 'success', value: '90, -180' })
  })

  test('refuses other answers and coordinates out of range', async ({ assert }) => {
    for (const answer of [
      '',
      'Paris',
      '48.8566',
      '91, 0',
      '0, 180.5',
      '48.8 2.3',
      'a, b',
      '1e2, 3',
    ]) {
      assert.equal((await parseAnswer(parse, answer)).status, 'fail', answer)
    }
  })

  test('the "no" button is a declined answer', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, 'No'), {
      status: 'success',
      value: 'No',
      variableValue: '',
    })
    assert.deepEqual(await parseAnswer(parse, 'non', { options: { labels: { no: 'Non' } } }), {
      status: 'success',
      value: 'Non',
      variableValue: '',
    })
  })
})
