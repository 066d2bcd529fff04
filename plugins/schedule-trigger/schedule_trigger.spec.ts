import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'
import { nextTick, normalizeSchedule, toCron } from './runner.js'

const folder = new URL('./', import.meta.url)
const at = (iso: string) => new Date(iso)
const iso = (date: Date) => date.toISOString()

test.group('Schedule trigger: nextTick and toCron', () => {
  test('defaults: every minute', ({ assert }) => {
    assert.equal(toCron({}), '* * * * *')
    assert.equal(iso(nextTick({}, at('2030-01-01T10:00:00Z'))), '2030-01-01T10:01:00.000Z')
    assert.equal(iso(nextTick({}, at('2030-01-01T10:00:59.999Z'))), '2030-01-01T10:01:00.000Z')
  })

  test('minutes: steps restart every hour, like */n', ({ assert }) => {
    const every15 = { mode: 'minutes', minutesInterval: 15 }
    assert.equal(toCron(every15), '*/15 * * * *')
    assert.equal(iso(nextTick(every15, at('2030-01-01T10:00:00Z'))), '2030-01-01T10:15:00.000Z')
    assert.equal(iso(nextTick(every15, at('2030-01-01T10:46:00Z'))), '2030-01-01T11:00:00.000Z')
    const every7 = { mode: 'minutes', minutesInterval: 7 }
    assert.equal(iso(nextTick(every7, at('2030-01-01T23:57:00Z'))), '2030-01-02T00:00:00.000Z')
  })

  test('hourly, daily, weekly, monthly', ({ assert }) => {
    const hourly = { mode: 'hourly', minute: 30 }
    assert.equal(toCron(hourly), '30 * * * *')
    assert.equal(iso(nextTick(hourly, at('2030-01-01T10:29:00Z'))), '2030-01-01T10:30:00.000Z')
    assert.equal(iso(nextTick(hourly, at('2030-01-01T10:30:00Z'))), '2030-01-01T11:30:00.000Z')

    const daily = { mode: 'daily', hour: 9, minute: 5 }
    assert.equal(toCron(daily), '5 9 * * *')
    assert.equal(iso(nextTick(daily, at('2030-01-31T09:05:00Z'))), '2030-02-01T09:05:00.000Z')

    // 2030-01-01 is a Tuesday.
    const weekly = { mode: 'weekly', dayOfWeek: 0, hour: 8, minute: 0 }
    assert.equal(toCron(weekly), '0 8 * * 0')
    assert.equal(iso(nextTick(weekly, at('2030-01-01T00:00:00Z'))), '2030-01-06T08:00:00.000Z')
    assert.equal(iso(nextTick(weekly, at('2030-01-06T08:00:00Z'))), '2030-01-13T08:00:00.000Z')

    const monthly = { mode: 'monthly', dayOfMonth: 31, hour: 23, minute: 59 }
    assert.equal(toCron(monthly), '59 23 31 * *')
    // February and April have no 31st: skipped, as cron skips them.
    assert.equal(iso(nextTick(monthly, at('2030-01-31T23:59:00Z'))), '2030-03-31T23:59:00.000Z')
    assert.equal(iso(nextTick(monthly, at('2030-03-31T23:59:00Z'))), '2030-05-31T23:59:00.000Z')
    const leap = { mode: 'monthly', dayOfMonth: 29 }
    assert.equal(iso(nextTick(leap, at('2031-01-29T00:00:00Z'))), '2031-03-29T00:00:00.000Z')
    assert.equal(iso(nextTick(leap, at('2032-01-29T00:00:00Z'))), '2032-02-29T00:00:00.000Z')
  })

  test('out-of-bounds and odd values fall back within the bounds', ({ assert }) => {
    assert.deepEqual(
      normalizeSchedule({
        mode: 'yearly',
        minutesInterval: 90,
        hour: -1,
        minute: '7',
        dayOfWeek: 9,
      }),
      { mode: 'minutes', minutesInterval: 59, hour: 0, minute: 7, dayOfWeek: 6, dayOfMonth: 1 }
    )
    assert.equal(toCron({ mode: 'minutes', minutesInterval: 0 }), '* * * * *')
  })
})

test.group('Schedule trigger: the node', () => {
  test('the tick time, or now', async ({ assert }) => {
    const tick = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { mode: 'daily', hour: 9, minute: 30 },
      input: { scheduledAt: '2030-03-04T09:30:00Z' },
    })
    assert.deepEqual(tick.output, {
      timestamp: '2030-03-04T09:30:00.000Z',
      schedule: {
        mode: 'daily',
        minutesInterval: 1,
        hour: 9,
        minute: 30,
        dayOfWeek: 1,
        dayOfMonth: 1,
      },
    })
    const now = await runPluginTest({ folder, surface: 'workflow', options: {} })
    assert.approximately(Date.parse((now.output as any).timestamp), Date.now(), 5000)
  })
})
