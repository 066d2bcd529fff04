/**
 * {{Variable name}} substitution in block options, before a runner sees them.
 * Pure and browser-safe (the preview and the editor's "test" buttons use it too).
 */

export interface SubstitutionVariable {
  id?: string
  name: string
  value?: unknown
}

/** {{= expression =}}: left as is here, evaluated by the sandbox. */
const EXPRESSION = /\{\{=([\s\S]+?)=\}\}/g
const REFERENCE = /\{\{([^{}]+?)\}\}/g

/** How a variable value reads inside text. */
export function formatVariableValue(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map((item) => formatVariableValue(item)).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function byName(variables: readonly SubstitutionVariable[]) {
  const map = new Map<string, unknown>()
  // The first declaration wins, like the bot format's lookups by name.
  for (const variable of variables) {
    if (!map.has(variable.name)) map.set(variable.name, variable.value)
  }
  return map
}

function replaceReferences(text: string, values: Map<string, unknown>) {
  return text.replace(REFERENCE, (_, name: string) => formatVariableValue(values.get(name.trim())))
}

/**
 * Replaces every {{Variable name}} of the text by the variable's value. Unknown and empty
 * variables read as an empty string; arrays are joined with ', '; objects become JSON.
 * {{= expressions =}} are kept as they are.
 */
export function substituteVariables(text: string, variables: readonly SubstitutionVariable[]) {
  if (!text.includes('{{')) return text
  return substituteWith(text, byName(variables))
}

function substituteWith(text: string, values: Map<string, unknown>) {
  if (!text.includes('{{=')) return replaceReferences(text, values)
  // Cut the expressions out so that references inside them stay for the sandbox.
  let output = ''
  let last = 0
  for (const match of text.matchAll(EXPRESSION)) {
    output += replaceReferences(text.slice(last, match.index), values) + match[0]
    last = match.index! + match[0].length
  }
  return output + replaceReferences(text.slice(last), values)
}

export interface SubstituteDeepOptions {
  /** Object keys whose string values are left untouched (code fields). */
  skipKeys?: readonly string[]
}

/**
 * Substitutes variables in every string of an options object (arrays and nested objects
 * included; other values untouched) and reports the {{= expressions =}} found, which the
 * caller evaluates in the sandbox.
 */
export function substituteDeep<T>(
  value: T,
  variables: readonly SubstitutionVariable[],
  options: SubstituteDeepOptions = {}
): { value: T; expressions: string[] } {
  const values = byName(variables)
  const skip = new Set(options.skipKeys ?? [])
  const expressions: string[] = []

  const walk = (current: unknown): unknown => {
    if (typeof current === 'string') {
      for (const match of current.matchAll(EXPRESSION)) expressions.push(match[1].trim())
      return current.includes('{{') ? substituteWith(current, values) : current
    }
    if (Array.isArray(current)) return current.map(walk)
    if (current !== null && typeof current === 'object') {
      const copy: Record<string, unknown> = {}
      for (const [key, child] of Object.entries(current)) {
        copy[key] = skip.has(key) ? child : walk(child)
      }
      return copy
    }
    return current
  }

  return { value: walk(value) as T, expressions }
}
