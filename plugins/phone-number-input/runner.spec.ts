import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

test.group('Phone number input parser', () => {
  test('accepts international numbers, in E.164', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, '+1 650-253-0000'), {
      status: 'success',
      value: '+16502530000',
    })
    assert.deepEqual(
      await parseAnswer(parse, '+33 6 12 34 56 78', { options: { defaultCountryCode: 'INT' } }),
      {
        status: 'success',
        value: '+33612345678',
      }
    )
  })

  test('reads national numbers with the default country', async ({ assert }) => {
    assert.deepEqual(
      await parseAnswer(parse, '06 12 34 56 78', { options: { defaultCountryCode: 'FR' } }),
      {
        status: 'success',
        value: '+33612345678',
      }
    )
    assert.deepEqual(
      await parseAnswer(parse, '(650) 253-0000', { options: { defaultCountryCode: 'us' } }),
      {
        status: 'success',
        value: '+16502530000',
      }
    )
    // A prefix typed by the visitor wins over the default country.
    assert.deepEqual(
      await parseAnswer(parse, '+44 20 7946 0958', { options: { defaultCountryCode: 'FR' } }),
      {
        status: 'success',
        value: '+442079460958',
      }
    )
  })

  test('refuses what is not a valid number', async ({ assert }) => {
    assert.equal((await parseAnswer(parse, '')).status, 'fail')
    assert.equal((await parseAnswer(parse, 'call me')).status, 'fail')
    // National numbers need a default country.
    assert.equal((await parseAnswer(parse, '06 12 34 56 78')).status, 'fail')
    assert.equal(
      (await parseAnswer(parse, '06 12 34 56 78', { options: { defaultCountryCode: 'XX' } }))
        .status,
      'fail'
    )
    assert.equal((await parseAnswer(parse, '+33 6 12')).status, 'fail')
    assert.equal((await parseAnswer(parse, '+1 555 000 0000')).status, 'fail')
  })
})
