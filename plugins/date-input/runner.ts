import { DateTime } from 'luxon'
import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

const DEFAULT_FORMAT = 'dd/MM/yyyy'
const DEFAULT_FORMAT_WITH_TIME = 'dd/MM/yyyy HH:mm'

// What the date picker sends: a day, optionally a time, optionally the visitor's offset.
const ISO_ANSWER =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i
const RANGE_SEPARATOR = /\s+to\s+/i
// Month and day names must not depend on the server's locale; the bot has none yet.
const LOCALE = 'en-US'

/**
 * Builders write date-fns style tokens (the format of this ecosystem); luxon spells
 * some differently. Each run of a letter maps to luxon's token for the same thing.
 * `do` (ordinal day) has no luxon token: it becomes a quoted literal for the given date.
 */
function tokenFor(letter: string, length: number): string {
  const run = letter.repeat(length)
  switch (letter) {
    case 'y':
    case 'Y':
    case 'u':
      return length === 2 ? 'yy' : length === 4 ? 'yyyy' : 'y'
    case 'M':
    case 'L':
    case 'd':
    case 'H':
    case 'h':
    case 'm':
    case 's':
    case 'G':
      return run
    case 'D':
      // Day of the year in date-fns, but people who type DD mean the day of the month.
      return length >= 2 ? 'dd' : 'd'
    case 'E':
      return length <= 3 ? 'EEE' : length === 4 ? 'EEEE' : 'EEEEE'
    case 'e':
    case 'c':
      return length <= 2 ? 'c' : length === 3 ? 'ccc' : length === 4 ? 'cccc' : 'ccccc'
    case 'a':
    case 'b':
    case 'B':
      return 'a'
    case 'k':
      return length >= 2 ? 'HH' : 'H'
    case 'K':
      return length >= 2 ? 'hh' : 'h'
    case 'S':
      return 'SSS'
    case 'Q':
    case 'q':
      return 'q'
    case 'w':
    case 'I':
      return length >= 2 ? 'WW' : 'W'
    case 'X':
    case 'x':
    case 'O':
    case 'z':
      return 'ZZ'
    case 't':
      return 'X'
    case 'T':
      return 'x'
    case 'P':
      return 'D'.repeat(Math.min(length, 4))
    case 'p':
      return 't'.repeat(Math.min(length, 4))
    default:
      return run
  }
}

function ordinal(day: number) {
  const tens = day % 100
  if (tens >= 11 && tens <= 13) return `${day}th`
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`
}

const FORMAT_PART = /'(?:[^']|'')*'?|([A-Za-z])\1*|[^A-Za-z']+/g

/**
 * The luxon format of a date-fns style format. With a date, `do` becomes that date's
 * ordinal day as a literal; without one (reading typed answers) it reads as the day.
 */
export function toLuxonFormat(format: string, date?: DateTime): string {
  const parts = [...format.matchAll(FORMAT_PART)]
  let out = ''
  for (let index = 0; index < parts.length; index++) {
    const [part, letter] = parts[index]
    if (part.startsWith("'")) {
      // '' is date-fns's quote inside a literal; luxon has no escape for it.
      out += part.replaceAll("''", '')
    } else if (part === 'd' && parts[index + 1]?.[0] === 'o') {
      out += date ? `'${ordinal(date.day)}'` : 'd'
      index++
    } else {
      out += letter ? tokenFor(letter, part.length) : part
    }
  }
  return out
}

export function formatDate(date: DateTime, format: string): string {
  return date.toFormat(toLuxonFormat(format, date))
}

function parseDate(text: string, luxonFormat: string): DateTime | undefined {
  const trimmed = text.trim()
  const date = ISO_ANSWER.test(trimmed)
    ? DateTime.fromISO(trimmed.replace(' ', 'T'), { zone: 'utc', setZone: true, locale: LOCALE })
    : // Typed answers (API, messaging channels) may follow the block's own format.
      DateTime.fromFormat(trimmed, luxonFormat, { zone: 'utc', locale: LOCALE })
  return date.isValid ? date : undefined
}

interface Bound {
  date: DateTime
  /** A bound without a time limits the day, whatever the time of the answer. */
  unit: 'day' | 'minute'
}

function boundOf(value: unknown, luxonFormat: string): Bound | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const date = parseDate(value, luxonFormat)
  if (!date) return undefined
  return { date, unit: /\d{2}:\d{2}/.test(value) ? 'minute' : 'day' }
}

/** Wall-clock comparison, whatever offsets the two dates carry. */
function compare(date: DateTime, bound: Bound) {
  const key = (d: DateTime) => {
    const day = d.year * 10_000 + d.month * 100 + d.day
    return bound.unit === 'day' ? day : day * 10_000 + d.hour * 100 + d.minute
  }
  return key(date) - key(bound.date)
}

export const parse: InputParser<typeof plugin> = ({ answer, options }) => {
  const format =
    typeof options.format === 'string' && options.format.trim() !== ''
      ? options.format.trim()
      : options.hasTime
        ? DEFAULT_FORMAT_WITH_TIME
        : DEFAULT_FORMAT
  const luxonFormat = toLuxonFormat(format)
  const text = (answer.text ?? '').trim()
  const parts = options.isRange ? text.split(RANGE_SEPARATOR) : [text]
  if (parts.length !== (options.isRange ? 2 : 1)) {
    return { status: 'fail', reason: options.isRange ? 'Expected "<from> to <to>"' : 'Not a date' }
  }
  const dates: DateTime[] = []
  for (const part of parts) {
    const date = parseDate(part, luxonFormat)
    if (!date) return { status: 'fail', reason: `"${part}" is not a date` }
    dates.push(date)
  }
  const min = boundOf(options.min, luxonFormat)
  const max = boundOf(options.max, luxonFormat)
  for (const date of dates) {
    if (min && compare(date, min) < 0) return { status: 'fail', reason: 'Before the minimum date' }
    if (max && compare(date, max) > 0) return { status: 'fail', reason: 'After the maximum date' }
  }
  if (dates.length === 2 && dates[0].toMillis() > dates[1].toMillis()) {
    return { status: 'fail', reason: 'The range ends before it starts' }
  }
  return { status: 'success', value: dates.map((date) => formatDate(date, format)).join(' to ') }
}
