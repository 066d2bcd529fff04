import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { formatDate, parse, toLuxonFormat } from './runner.js'
import { parseAnswer } from '#sdk/testing'

const value = async (answer: string, options: Record<string, unknown> = {}) => {
  const parsed = await parseAnswer(parse, answer, { options })
  return parsed.status === 'success' ? parsed.value : undefined
}

test.group('Date input parser', () => {
  test('formats a date with the default format', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, '2024-03-05'), {
      status: 'success',
      value: '05/03/2024',
    })
    assert.equal(await value('2024-03-05T14:07', { hasTime: true }), '05/03/2024 14:07')
    // Without hasTime the time of the answer is not shown.
    assert.equal(await value('2024-03-05T14:07'), '05/03/2024')
    // The visitor's offset is kept: the wall-clock time is what they picked.
    assert.equal(await value('2024-03-05T23:30+05:00', { hasTime: true }), '05/03/2024 23:30')
  })

  test('formats with the date-fns style format of the block', async ({ assert }) => {
    assert.equal(await value('2024-03-05', { format: 'yyyy-MM-dd' }), '2024-03-05')
    assert.equal(await value('2024-03-05', { format: 'MM/dd/yy' }), '03/05/24')
    assert.equal(
      await value('2024-03-05', { format: 'EEEE, MMMM do yyyy' }),
      'Tuesday, March 5th 2024'
    )
    assert.equal(
      await value('2024-03-22T09:05', { format: "d MMM 'at' h:mm a", hasTime: true }),
      '22 Mar at 9:05 AM'
    )
    assert.equal(await value('2024-03-05', { format: 'DD/MM/YYYY' }), '05/03/2024')
  })

  test('converts date-fns tokens to luxon tokens', ({ assert }) => {
    assert.equal(toLuxonFormat('dd/MM/yyyy HH:mm'), 'dd/MM/yyyy HH:mm')
    assert.equal(toLuxonFormat('E eeee aaa'), 'EEE cccc a')
    assert.equal(toLuxonFormat("'o''clock' P p"), "'oclock' D t")
    const date = DateTime.fromISO('2024-01-01', { zone: 'utc' })
    for (const [day, text] of [
      [1, '1st'],
      [2, '2nd'],
      [3, '3rd'],
      [4, '4th'],
      [11, '11th'],
      [12, '12th'],
      [13, '13th'],
      [21, '21st'],
      [22, '22nd'],
      [23, '23rd'],
      [31, '31st'],
    ] as const) {
      assert.equal(formatDate(date.set({ day }), 'do'), text)
    }
  })

  test('reads a range "<from> to <to>"', async ({ assert }) => {
    assert.deepEqual(
      await parseAnswer(parse, '2024-03-05 to 2024-03-09', { options: { isRange: true } }),
      {
        status: 'success',
        value: '05/03/2024 to 09/03/2024',
      }
    )
    assert.equal(
      await value('2024-03-05T10:00 to 2024-03-05T12:30', { isRange: true, hasTime: true }),
      '05/03/2024 10:00 to 05/03/2024 12:30'
    )
    assert.isUndefined(await value('2024-03-09 to 2024-03-05', { isRange: true }))
    assert.isUndefined(await value('2024-03-05', { isRange: true }))
    assert.isUndefined(await value('2024-03-05 to 2024-03-09'))
  })

  test('refuses what is not a date', async ({ assert }) => {
    for (const answer of [
      '',
      'tomorrow',
      '2024-02-30',
      '2024-13-01',
      '05/03/2024 extra',
      '2024-3-5',
    ]) {
      assert.isUndefined(await value(answer), answer)
    }
  })

  test('reads a typed answer in the block format', async ({ assert }) => {
    assert.equal(await value('05/03/2024'), '05/03/2024')
    assert.equal(await value('03/05/2024', { format: 'MM/dd/yyyy' }), '03/05/2024')
  })

  test('applies min and max by day, or by minute when they carry a time', async ({ assert }) => {
    const options = { min: '2024-03-01', max: '2024-03-31' }
    assert.equal(await value('2024-03-01', options), '01/03/2024')
    assert.equal(await value('2024-03-31T23:59', { ...options, hasTime: true }), '31/03/2024 23:59')
    assert.isUndefined(await value('2024-02-29', options))
    assert.isUndefined(await value('2024-04-01', options))
    assert.isUndefined(await value('2024-02-25 to 2024-03-05', { ...options, isRange: true }))
    const timed = { min: '2024-03-01T09:00', hasTime: true }
    assert.isUndefined(await value('2024-03-01T08:59', timed))
    assert.equal(await value('2024-03-01T09:00', timed), '01/03/2024 09:00')
    // An unreadable bound (an empty variable) is no bound.
    assert.equal(await value('1999-01-01', { min: 'soon', max: '' }), '01/01/1999')
  })
})
