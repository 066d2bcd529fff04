import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

// Plain decimal notation only: Number() would also take '0x1f', 'Infinity' or ''.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

/** Bounds typed as {{variables}} arrive as text; an empty or unreadable bound is no bound. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  return NUMBER.test(text) ? Number(text) : undefined
}

/** Steps are checked from the minimum (or 0), with room for floating point error. */
function isOnStep(value: number, step: number, base: number) {
  const steps = (value - base) / step
  return Math.abs(steps - Math.round(steps)) < 1e-9
}

export const parse: InputParser<typeof plugin> = ({ answer, options }) => {
  const value = toNumber(answer.text)
  if (value === undefined) return { status: 'fail', reason: 'The answer is not a number' }
  const min = toNumber(options.min)
  const max = toNumber(options.max)
  const step = toNumber(options.step)
  if (min !== undefined && value < min) return { status: 'fail', reason: `Less than ${min}` }
  if (max !== undefined && value > max) return { status: 'fail', reason: `More than ${max}` }
  if (step !== undefined && step > 0 && !isOnStep(value, step, min ?? 0)) {
    return { status: 'fail', reason: `Not a multiple of ${step}` }
  }
  // String(Number) drops what the visitor typed around the number: '+042.50' is '42.5'.
  return { status: 'success', value: String(value) }
}
