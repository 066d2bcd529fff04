/**
 * The schedule trigger's times, in UTC like the queue's cron patterns. Pure and
 * browser-safe: the editor can show the next run, the server registers the cron pattern,
 * and both agree because nextTick follows the same rules as the pattern toCron gives
 * (a monthly day missing from a month skips that month, as cron does).
 */
import { SCHEDULE_MODES } from './index.js'

export type ScheduleMode = (typeof SCHEDULE_MODES)[number]

export interface ScheduleOptions {
  mode?: string
  minutesInterval?: number | string
  hour?: number | string
  minute?: number | string
  dayOfWeek?: number | string
  dayOfMonth?: number | string
}

export interface Schedule {
  mode: ScheduleMode
  minutesInterval: number
  hour: number
  minute: number
  dayOfWeek: number
  dayOfMonth: number
}

const MINUTE_MS = 60_000

function bounded(value: unknown, min: number, max: number, fallback: number): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number)) return fallback
  return Math.min(Math.max(Math.trunc(number), min), max)
}

/** The options with the bounds of index.ts and their defaults applied (default: every minute). */
export function normalizeSchedule(options: ScheduleOptions = {}): Schedule {
  const mode = (SCHEDULE_MODES as readonly string[]).includes(options.mode ?? '')
    ? (options.mode as ScheduleMode)
    : 'minutes'
  return {
    mode,
    minutesInterval: bounded(options.minutesInterval, 1, 59, 1),
    hour: bounded(options.hour, 0, 23, 0),
    minute: bounded(options.minute, 0, 59, 0),
    dayOfWeek: bounded(options.dayOfWeek, 0, 6, 1),
    dayOfMonth: bounded(options.dayOfMonth, 1, 31, 1),
  }
}

/** A 5-field cron pattern (minute hour day-of-month month day-of-week), UTC. */
export function toCron(options: ScheduleOptions = {}): string {
  const s = normalizeSchedule(options)
  switch (s.mode) {
    case 'minutes':
      return s.minutesInterval === 1 ? '* * * * *' : `*/${s.minutesInterval} * * * *`
    case 'hourly':
      return `${s.minute} * * * *`
    case 'daily':
      return `${s.minute} ${s.hour} * * *`
    case 'weekly':
      return `${s.minute} ${s.hour} * * ${s.dayOfWeek}`
    case 'monthly':
      return `${s.minute} ${s.hour} ${s.dayOfMonth} * *`
  }
}

function daysInMonth(year: number, month: number) {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
}

/** The first tick strictly after `from`. */
export function nextTick(options: ScheduleOptions, from: Date): Date {
  const s = normalizeSchedule(options)
  // Ticks fall on whole minutes: the earliest candidate is the next one.
  const start = new Date(Math.floor(from.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS)
  const year = start.getUTCFullYear()
  const month = start.getUTCMonth()
  const day = start.getUTCDate()
  const hour = start.getUTCHours()
  const at = (d: number, h: number, m: number, mo = month) => new Date(Date.UTC(year, mo, d, h, m))

  switch (s.mode) {
    case 'minutes': {
      // `*/n` fires at the minutes divisible by n within each hour, so a step restarts at :00.
      const minute = Math.ceil(start.getUTCMinutes() / s.minutesInterval) * s.minutesInterval
      return minute >= 60 ? at(day, hour + 1, 0) : at(day, hour, minute)
    }
    case 'hourly': {
      const tick = at(day, hour, s.minute)
      return tick < start ? at(day, hour + 1, s.minute) : tick
    }
    case 'daily': {
      const tick = at(day, s.hour, s.minute)
      return tick < start ? at(day + 1, s.hour, s.minute) : tick
    }
    case 'weekly': {
      const ahead = (s.dayOfWeek - start.getUTCDay() + 7) % 7
      const tick = at(day + ahead, s.hour, s.minute)
      return tick < start ? at(day + ahead + 7, s.hour, s.minute) : tick
    }
    case 'monthly': {
      // Day 31 exists in at least one month of any three in a row, day 29+ every year.
      for (let offset = 0; offset < 48; offset++) {
        const first = new Date(Date.UTC(year, month + offset, 1))
        const y = first.getUTCFullYear()
        const m = first.getUTCMonth()
        if (s.dayOfMonth > daysInMonth(y, m)) continue
        const tick = new Date(Date.UTC(y, m, s.dayOfMonth, s.hour, s.minute))
        if (tick >= start) return tick
      }
      throw new Error(`No day ${s.dayOfMonth} found in the next 48 months`)
    }
  }
}
