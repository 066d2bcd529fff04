import type { Comparison, ConditionContent } from '#shared/bot/types'
import { formatVariableValue, substituteVariables } from '#plugins/substitute'
import type { EngineVariable } from './state.js'

/**
 * Condition evaluation (Condition items, display conditions of choices, channel start
 * conditions). Values are compared as numbers when both sides are numbers, then as dates
 * when both sides are dates, then as text (plus
 * "Greater or equal to" and "Less or equal to").
 */

const NUMBER = /^\s*-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i
/** ISO dates and the common d/m/y or y-m-d shapes; plain numbers are never dates. */
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}|^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/

function toNumber(text: string): number | undefined {
  return NUMBER.test(text) ? Number(text) : undefined
}

function toTime(text: string): number | undefined {
  if (!DATE_LIKE.test(text.trim())) return undefined
  const iso = Date.parse(text)
  if (!Number.isNaN(iso)) return iso
  // d/m/y (the date input's default format)
  const match = text.trim().match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})(?:\s+(\d{1,2}):(\d{2}))?/)
  if (!match) return undefined
  const [, d, m, y, hh, mm] = match
  const year = y.length === 2 ? 2000 + Number(y) : Number(y)
  const time = Date.UTC(year, Number(m) - 1, Number(d), Number(hh ?? 0), Number(mm ?? 0))
  return Number.isNaN(time) ? undefined : time
}

/** -1, 0, 1 comparing numbers, then dates, then text (case-insensitively). */
function compareValues(left: string, right: string): number {
  const a = toNumber(left)
  const b = toNumber(right)
  if (a !== undefined && b !== undefined) return Math.sign(a - b)
  const ta = toTime(left)
  const tb = toTime(right)
  if (ta !== undefined && tb !== undefined) return Math.sign(ta - tb)
  return left.localeCompare(right, undefined, { sensitivity: 'base' })
}

function isEmptyValue(value: unknown) {
  if (value === undefined || value === null) return true
  if (Array.isArray(value)) return value.length === 0
  return String(value).trim() === ''
}

function regexOf(pattern: string): RegExp | undefined {
  // "/abc/i" or plain "abc"
  const literal = pattern.match(/^\/(.*)\/([gimsuy]*)$/)
  try {
    return literal ? new RegExp(literal[1], literal[2]) : new RegExp(pattern)
  } catch {
    return undefined
  }
}

const lower = (text: string) => text.toLowerCase()

/** Whether one of the listed values (a list variable, or "a, b" text) satisfies test. */
function anyOf(value: unknown, test: (text: string) => boolean) {
  if (Array.isArray(value)) return value.some((item) => test(formatVariableValue(item)))
  return test(formatVariableValue(value))
}

/** One whole `{{...}}` reference, with what is between the braces. */
const WHOLE_REFERENCE = /^\s*\{\{(?!=)([^{}]+?)\}\}\s*$/

/**
 * The left side of a comparison: a variable picked by id (what conditions stored before
 * expressions), or an expression such as `{{$node["HTTP request"].status}}` or
 * `{{First}} {{Last}}`. One whole reference keeps its value as it is (a list stays a list,
 * to compare its items); text around references makes one text.
 */
function leftValue(subject: string | undefined, variables: readonly EngineVariable[]): unknown {
  if (!subject) return undefined
  const variable = variables.find((v) => v.id === subject)
  if (variable) return variable.value
  if (!subject.includes('{{')) return undefined
  const whole = WHOLE_REFERENCE.exec(subject)
  if (whole) return variables.find((v) => v.name === whole[1].trim())?.value
  return substituteVariables(subject, variables)
}

function evaluateComparison(comparison: Comparison, variables: readonly EngineVariable[]) {
  const value = leftValue(comparison.variableId, variables)
  const operator = comparison.comparisonOperator ?? 'Equal to'
  const expected = substituteVariables(comparison.value ?? '', variables)
  const text = formatVariableValue(value)

  switch (operator) {
    case 'Is set':
      return !isEmptyValue(value)
    case 'Is empty':
      return isEmptyValue(value)
    case 'Equal to':
      return anyOf(value, (item) => compareValues(item, expected) === 0)
    case 'Not equal':
      return !anyOf(value, (item) => compareValues(item, expected) === 0)
    case 'Contains': {
      // "a, b" in the value field means any of them.
      const needles = expected
        .split(',')
        .map((part) => lower(part.trim()))
        .filter(Boolean)
      const haystack = lower(text)
      return needles.length > 0 && needles.some((needle) => haystack.includes(needle))
    }
    case 'Does not contain': {
      const needles = expected
        .split(',')
        .map((part) => lower(part.trim()))
        .filter(Boolean)
      const haystack = lower(text)
      return needles.every((needle) => !haystack.includes(needle))
    }
    case 'Greater than':
      return !isEmptyValue(value) && compareValues(text, expected) > 0
    case 'Less than':
      return !isEmptyValue(value) && compareValues(text, expected) < 0
    case 'Greater or equal to':
      return !isEmptyValue(value) && compareValues(text, expected) >= 0
    case 'Less or equal to':
      return !isEmptyValue(value) && compareValues(text, expected) <= 0
    case 'Starts with':
      return lower(text).startsWith(lower(expected))
    case 'Ends with':
      return lower(text).endsWith(lower(expected))
    case 'Matches regex': {
      const regex = regexOf(expected)
      return regex ? regex.test(text) : false
    }
    case 'Does not match regex': {
      const regex = regexOf(expected)
      return regex ? !regex.test(text) : true
    }
    default:
      return false
  }
}

/**
 * True when the condition holds. An empty condition (no comparison) never holds, so a
 * half-configured branch is not taken by accident.
 */
export function evaluateCondition(
  condition: ConditionContent | undefined | null,
  variables: readonly EngineVariable[]
): boolean {
  const comparisons = condition?.comparisons ?? []
  if (comparisons.length === 0) return false
  const results = comparisons.map((comparison) => evaluateComparison(comparison, variables))
  return condition?.logicalOperator === 'OR' ? results.some(Boolean) : results.every(Boolean)
}
