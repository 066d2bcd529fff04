import { test } from '@japa/runner'
import { nextTick, toCron } from '../../../../plugins/schedule-trigger/runner.js'
import { nextCronTime } from '#queue/cron'

/**
 * The schedule trigger's own clock (nextTick) against the queue's cron, which fires its runs:
 * the two must agree. It stays here, not beside the plugin: it needs the app's queue.
 */
test.group('Schedule trigger and the queue cron', () => {
  test('nextTick agrees with the queue cron for every mode', ({ assert }) => {
    const schedules = [
      {},
      { mode: 'minutes', minutesInterval: 7 },
      { mode: 'minutes', minutesInterval: 59 },
      { mode: 'hourly', minute: 45 },
      { mode: 'daily', hour: 0, minute: 0 },
      { mode: 'daily', hour: 23, minute: 59 },
      { mode: 'weekly', dayOfWeek: 6, hour: 12, minute: 30 },
      { mode: 'monthly', dayOfMonth: 30, hour: 6, minute: 15 },
      { mode: 'monthly', dayOfMonth: 31 },
    ]
    // Fixed pseudo-random instants over four years, leap day included.
    let seed = 7
    const starts = Array.from({ length: 60 }, () => {
      seed = (seed * 48271) % 2147483647
      return Date.UTC(2030, 0, 1) + (seed % (4 * 365 * 86_400)) * 1000
    })
    starts.push(Date.UTC(2032, 1, 28, 23, 59, 30))
    for (const schedule of schedules) {
      for (const start of starts) {
        assert.equal(
          nextTick(schedule, new Date(start)).getTime(),
          nextCronTime(toCron(schedule), start),
          `${JSON.stringify(schedule)} from ${new Date(start).toISOString()}`
        )
      }
    }
  })
})
