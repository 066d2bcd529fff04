/**
 * A 5-field cron matcher (minute hour day-of-month month day-of-week), evaluated in UTC, for
 * repeating jobs. Written here because no cron library is a dependency; it follows Vixie cron:
 * names (JAN-DEC, SUN-SAT), 7 as Sunday, lists, ranges, steps, the @daily-style macros, and
 * "day-of-month OR day-of-week" when both are restricted.
 */

export class InvalidCronError extends Error {
  constructor(expression: string, reason: string) {
    super(`Invalid cron pattern "${expression}": ${reason}`)
    this.name = 'InvalidCronError'
  }
}

export interface CronSchedule {
  expression: string
  minutes: Set<number>
  hours: Set<number>
  days: Set<number>
  months: Set<number>
  weekdays: Set<number>
  /** Vixie cron: a field starting with '*' does not take part in the day OR rule. */
  daysRestricted: boolean
  weekdaysRestricted: boolean
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
}

const MONTH_NAMES = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
]
const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']

interface FieldSpec {
  label: string
  min: number
  max: number
  names?: string[]
  namesStartAt?: number
}

const FIELDS: FieldSpec[] = [
  { label: 'minute', min: 0, max: 59 },
  { label: 'hour', min: 0, max: 23 },
  { label: 'day of month', min: 1, max: 31 },
  { label: 'month', min: 1, max: 12, names: MONTH_NAMES, namesStartAt: 1 },
  // 7 is accepted for Sunday and folded onto 0 below.
  { label: 'day of week', min: 0, max: 7, names: WEEKDAY_NAMES, namesStartAt: 0 },
]

function parseValue(expression: string, spec: FieldSpec, raw: string): number {
  const upper = raw.toUpperCase()
  const named = spec.names?.indexOf(upper) ?? -1
  if (named >= 0) return named + (spec.namesStartAt ?? 0)
  if (!/^\d+$/.test(raw)) {
    throw new InvalidCronError(expression, `"${raw}" is not a valid ${spec.label}`)
  }
  const value = Number(raw)
  if (value < spec.min || value > spec.max) {
    throw new InvalidCronError(
      expression,
      `${spec.label} ${value} is outside ${spec.min}-${spec.max}`
    )
  }
  return value
}

function parseField(expression: string, spec: FieldSpec, field: string): Set<number> {
  const values = new Set<number>()
  for (const part of field.split(',')) {
    const [range, stepText, extra] = part.split('/')
    if (extra !== undefined || range === '') {
      throw new InvalidCronError(expression, `"${part}" is not a valid ${spec.label}`)
    }
    let step = 1
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0) {
        throw new InvalidCronError(expression, `step "${stepText}" must be a positive number`)
      }
      step = Number(stepText)
    }
    let from: number
    let to: number
    if (range === '*') {
      from = spec.min
      to = spec.max
    } else if (range.includes('-')) {
      const [start, end, more] = range.split('-')
      if (more !== undefined) {
        throw new InvalidCronError(expression, `"${range}" is not a valid range`)
      }
      from = parseValue(expression, spec, start)
      to = parseValue(expression, spec, end)
      if (from > to) {
        throw new InvalidCronError(expression, `range "${range}" runs backwards`)
      }
    } else {
      from = parseValue(expression, spec, range)
      // "5/15" means from 5 to the end of the field, every 15.
      to = stepText === undefined ? from : spec.max
    }
    for (let value = from; value <= to; value += step) values.add(value)
  }
  return values
}

/** Parses and validates a pattern; throws InvalidCronError naming the faulty field. */
export function parseCron(expression: string): CronSchedule {
  const trimmed = expression.trim()
  const expanded = MACROS[trimmed.toLowerCase()] ?? trimmed
  const fields = expanded.split(/\s+/)
  if (fields.length !== 5) {
    throw new InvalidCronError(
      expression,
      `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`
    )
  }
  const [minutes, hours, days, months, weekdays] = fields.map((field, index) =>
    parseField(expression, FIELDS[index], field)
  )
  if (weekdays.delete(7)) weekdays.add(0)
  const schedule: CronSchedule = {
    expression,
    minutes,
    hours,
    days,
    months,
    weekdays,
    daysRestricted: !fields[2].startsWith('*'),
    weekdaysRestricted: !fields[4].startsWith('*'),
  }
  // Catches patterns such as "0 0 30 2 *" now rather than as a silent never-firing schedule.
  nextCronTime(schedule, Date.UTC(2000, 0, 1))
  return schedule
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  const byDay = schedule.days.has(date.getUTCDate())
  const byWeekday = schedule.weekdays.has(date.getUTCDay())
  if (schedule.daysRestricted && schedule.weekdaysRestricted) return byDay || byWeekday
  return byDay && byWeekday
}

/** Whether the minute containing `time` is a tick of the schedule. */
export function cronMatches(pattern: string | CronSchedule, time: Date | number): boolean {
  const schedule = typeof pattern === 'string' ? parseCron(pattern) : pattern
  const date = new Date(time)
  return (
    schedule.minutes.has(date.getUTCMinutes()) &&
    schedule.hours.has(date.getUTCHours()) &&
    schedule.months.has(date.getUTCMonth() + 1) &&
    dayMatches(schedule, date)
  )
}

const MINUTE = 60_000
// February 29th can be 8 years away (2096 -> 2104); past that a pattern never matches.
const SEARCH_YEARS = 9

/** The first tick strictly after `after`, in epoch milliseconds (UTC). */
export function nextCronTime(pattern: string | CronSchedule, after: Date | number): number {
  const schedule = typeof pattern === 'string' ? parseCron(pattern) : pattern
  const start = Math.floor(new Date(after).getTime() / MINUTE) * MINUTE + MINUTE
  const limit = start + SEARCH_YEARS * 366 * 24 * 60 * MINUTE
  let time = start
  while (time < limit) {
    const d = new Date(time)
    const year = d.getUTCFullYear()
    const month = d.getUTCMonth()
    const day = d.getUTCDate()
    const hour = d.getUTCHours()
    // Jump a whole month, day or hour at a time so a yearly pattern takes a few hundred steps.
    if (!schedule.months.has(month + 1)) {
      time = Date.UTC(year, month + 1, 1)
    } else if (!dayMatches(schedule, d)) {
      time = Date.UTC(year, month, day + 1)
    } else if (!schedule.hours.has(hour)) {
      time = Date.UTC(year, month, day, hour + 1)
    } else if (!schedule.minutes.has(d.getUTCMinutes())) {
      time += MINUTE
    } else {
      return time
    }
  }
  throw new InvalidCronError(schedule.expression, 'it never matches a date')
}
