import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

const DEFAULT_LENGTH = 10
const DEFAULT_STARTS_AT = 0

function integerOf(value: unknown, fallback: number) {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof number === 'number' && Number.isInteger(number) ? number : fallback
}

/**
 * Numbers go from startsAt to length (0 to 10 by default, the usual "how likely" scale);
 * icons from 1 to length.
 */
export function ratingRange(options: {
  buttonType?: string
  length?: unknown
  startsAt?: unknown
}) {
  const max = integerOf(options.length, DEFAULT_LENGTH)
  const min = options.buttonType === 'Icons' ? 1 : integerOf(options.startsAt, DEFAULT_STARTS_AT)
  return { min, max }
}

export const parse: InputParser<typeof plugin> = ({ answer, options }) => {
  const text = (answer.text ?? '').trim()
  const rating = /^\d+$/.test(text) ? Number(text) : Number.NaN
  const { min, max } = ratingRange(options)
  if (!Number.isInteger(rating) || rating < min || rating > max) {
    return { status: 'fail', reason: `Not a rating from ${min} to ${max}` }
  }
  return { status: 'success', value: String(rating) }
}
