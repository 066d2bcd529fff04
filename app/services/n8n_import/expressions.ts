import type {
  Comparison,
  ConditionContent,
  DataPathOf,
  N8nImportTools,
} from '../../../packages/sdk/src/n8n.js'

/**
 * The app's side of `#sdk/n8n` (`@flowcraft/sdk/n8n`): n8n expressions translated into ours
 * for the importer (docs/migrating-from-n8n.md), and the condition and pair helpers plugins'
 * `fromN8n` converters call through the SDK. Pure: no Node, no database.
 */

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

/** `{{ ... }}` blocks of an n8n expression (the text after the leading `=`). */
const BLOCK = /\{\{([\s\S]*?)\}\}/g

/**
 * A property path after an n8n data root: `.a.b`, `["a"]`, `[0]`, stopping before a method
 * call so `$json.name.toUpperCase()` keeps `.toUpperCase()` as code.
 */
const PATH = String.raw`((?:\??\.[A-Za-z_$][\w$]*(?!\w*\s*\()|\[\s*(?:\d+|"[^"]*"|'[^']*')\s*\])*)`

/** n8n roots of the data a node reads, each with what it means here. */
const ROOTS: { pattern: string }[] = [
  { pattern: String.raw`\$json` },
  { pattern: String.raw`\$input\.(?:item|first\(\)|last\(\))\.json` },
  { pattern: String.raw`\$input\.all\(\)\[0\]\.json` },
  {
    pattern: String.raw`\$\(\s*(?:"([^"]+)"|'([^']+)')\s*\)\.(?:item|first\(\)|last\(\)|all\(\)\[0\])\.json`,
  },
  { pattern: String.raw`\$node\[\s*(?:"([^"]+)"|'([^']+)')\s*\]\.json` },
]

const ROOT = new RegExp(`(?:${ROOTS.map((root) => root.pattern).join('|')})${PATH}`, 'g')

/**
 * `["a b"]` and `?.a` as our paths read them (dots between keys, `[0]` for indexes; a key
 * may hold spaces). A key holding a dot or a bracket cannot be said: it stays as n8n wrote it.
 */
function ourPath(path: string): string {
  return path
    .replace(/\?\./g, '.')
    .replace(/\[\s*(?:"([^"]*)"|'([^']*)')\s*\]/g, (whole, a?: string, b?: string) => {
      const key = a ?? b ?? ''
      return key.trim() !== '' && !/[.[\]{}]/.test(key) ? `.${key}` : whole
    })
}

interface DataReference {
  /** The n8n node named, or undefined for the node's own input. */
  node?: string
  path: string
}

function readRoot(match: RegExpMatchArray): DataReference {
  const nodeName = match.slice(1, -1).find((group) => group !== undefined)
  return { node: nodeName, path: match[match.length - 1] ?? '' }
}

const NO_PATHS: DataPathOf = () => ''

function prefixed(reference: DataReference, paths: DataPathOf) {
  const prefix = paths(reference.node)
  return prefix ? `.${prefix}${reference.path}` : reference.path
}

/** Our reference text for n8n data: `{{$input.a}}`, `{{$node["Title"].a}}`. */
function referenceOf(reference: DataReference, paths: DataPathOf): string {
  const path = ourPath(prefixed(reference, paths))
  if (reference.node === undefined) return `{{$input${path}}}`
  return `{{$node[${JSON.stringify(reference.node)}]${path}}}`
}

/** The same data read from a Script node: `input.a`, `$node["Title"].a`. */
function codeOf(reference: DataReference, paths: DataPathOf): string {
  const path = prefixed(reference, paths)
  if (reference.node === undefined) return `input${path}`
  return `$node[${JSON.stringify(reference.node)}]${path}`
}

/** n8n's date helpers (Luxon) that have a plain JavaScript equivalent. */
const DATES: [RegExp, string][] = [
  [/\$now\.toISO\(\)/g, 'new Date().toISOString()'],
  [/\$now\.toMillis\(\)/g, 'Date.now()'],
  [/\$now\.toSeconds\(\)/g, 'Math.floor(Date.now() / 1000)'],
  [/\$today\.toISODate\(\)/g, 'new Date().toISOString().slice(0, 10)'],
  [/\$now(?![\w.$])/g, 'new Date().toISOString()'],
  [/\$today(?![\w.$])/g, 'new Date().toISOString().slice(0, 10)'],
]

/** What is left of n8n in translated code: a name we have no counterpart for. */
function leftover(code: string): string | undefined {
  const stripped = code.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
  return stripped.match(/\$(?!node\b|input\b)[A-Za-z_]\w*|\$\(/)?.[0]
}

export class UntranslatedExpression extends Error {
  constructor(
    readonly expression: string,
    readonly name: string
  ) {
    super(`${name} in ${expression}`)
  }
}

/** n8n JavaScript with its data roots and date helpers turned into our Script names. */
export function translateJs(code: string, paths: DataPathOf = NO_PATHS): string {
  let out = code.replace(ROOT, (...args) => codeOf(readRoot(args.slice(0, -2) as any), paths))
  for (const [pattern, replacement] of DATES) out = out.replace(pattern, replacement)
  return out
}

/**
 * One `{{ ... }}` block as our option text: a plain data read becomes a reference, `$now`
 * an inline expression, anything else an inline expression over references
 * (`{{= {{$input.a}} * 2 =}}`). Throws UntranslatedExpression for n8n names we lack.
 */
function translateBlock(inner: string, paths: DataPathOf): string {
  const code = inner.trim()
  const whole = new RegExp(`^(?:${ROOT.source})$`)
  const direct = code.match(whole)
  if (direct) return referenceOf(readRoot(direct), paths)
  // Inside an expression a reference reads as text; objects arrive as JSON.
  let out = code.replace(ROOT, (...args) => referenceOf(readRoot(args.slice(0, -2) as any), paths))
  for (const [pattern, replacement] of DATES) out = out.replace(pattern, replacement)
  const unknown = leftover(out.replace(/\{\{\$(?:input|node)[^{}]*\}\}/g, 'x'))
  if (unknown) throw new UntranslatedExpression(`{{${inner}}}`, unknown)
  return `{{= ${out} =}}`
}

/** Whether a parameter value is an n8n expression (a string starting with `=`). */
export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('=')
}

/**
 * An n8n parameter value as our option text. Literals stay as they are (numbers and
 * booleans as text); expressions have each `{{ }}` block translated.
 */
export function translateText(value: unknown, paths: DataPathOf = NO_PATHS): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  if (!isExpression(value)) return String(value)
  return value.slice(1).replace(BLOCK, (_, inner: string) => translateBlock(inner, paths))
}

/**
 * An n8n parameter value as a JavaScript expression: a literal as JSON, one `{{ }}` block
 * as its code (its type kept), text with blocks as a template literal.
 */
export function translateJsValue(value: unknown, paths: DataPathOf = NO_PATHS): string {
  if (!isExpression(value)) return JSON.stringify(value ?? null)
  const text = value.slice(1)
  const only = text.trim().match(/^\{\{([\s\S]*?)\}\}$/)
  const check = (code: string, original: string) => {
    const unknown = leftover(code)
    if (unknown) throw new UntranslatedExpression(original, unknown)
    return code
  }
  if (only && !only[1].includes('}}')) return check(`(${translateJs(only[1].trim(), paths)})`, text)
  let template = ''
  let last = 0
  for (const match of text.matchAll(BLOCK)) {
    template += escapeTemplate(text.slice(last, match.index))
    template += '${' + check(translateJs(match[1].trim(), paths), match[0]) + '}'
    last = match.index! + match[0].length
  }
  return '`' + template + escapeTemplate(text.slice(last)) + '`'
}

function escapeTemplate(text: string) {
  return text.replace(/[\\`]/g, (char) => `\\${char}`).replace(/\$\{/g, '\\${')
}

// ---------------------------------------------------------------------------
// Conditions (IF, Switch, Filter)
// ---------------------------------------------------------------------------

/** n8n comparison operations and our operator, for the operations we have. */
const OPERATIONS: Record<string, string> = {
  equals: 'Equal to',
  equal: 'Equal to',
  notEquals: 'Not equal',
  notEqual: 'Not equal',
  contains: 'Contains',
  notContains: 'Does not contain',
  startsWith: 'Starts with',
  endsWith: 'Ends with',
  regex: 'Matches regex',
  notRegex: 'Does not match regex',
  gt: 'Greater than',
  larger: 'Greater than',
  lt: 'Less than',
  smaller: 'Less than',
  gte: 'Greater or equal to',
  largerEqual: 'Greater or equal to',
  lte: 'Less or equal to',
  smallerEqual: 'Less or equal to',
  exists: 'Is set',
  isNotEmpty: 'Is set',
  notEmpty: 'Is set',
  true: 'Equal to',
  false: 'Equal to',
  empty: 'Is empty',
  isEmpty: 'Is empty',
  notExists: 'Is empty',
}

/**
 * One n8n comparison (left value, operation, right value) as ours. The left side must be a
 * data read or a literal: our comparisons name a variable or reference on the left.
 */
export function comparisonOf(
  left: unknown,
  operation: string,
  right: unknown,
  tools: Pick<N8nImportTools, 'text' | 'lost'>
): Comparison | undefined {
  const operator = OPERATIONS[operation]
  if (!operator) {
    tools.lost(`the comparison "${operation}"`)
    return undefined
  }
  const variableId = tools.text(left)
  if (!/^\{\{\$(?:input|node)[^{}]*\}\}$/.test(variableId)) {
    tools.lost(
      `the comparison of ${String(left)} (only data of the input or of a node is compared)`
    )
    return undefined
  }
  const value = operation === 'true' ? 'true' : operation === 'false' ? 'false' : tools.text(right)
  return { variableId, comparisonOperator: operator, value }
}

/** A filter of IF v2 / Switch v3 (`{conditions: [...], combinator}`) as our condition content. */
export function filterOf(filter: any, tools: N8nImportTools): ConditionContent {
  const comparisons: Comparison[] = []
  for (const item of filter?.conditions ?? []) {
    const operation = String(item?.operator?.operation ?? 'equals')
    const found = comparisonOf(item?.leftValue, operation, item?.rightValue, tools)
    if (found) comparisons.push(found)
  }
  return {
    comparisons,
    logicalOperator: String(filter?.combinator ?? 'and').toLowerCase() === 'or' ? 'OR' : 'AND',
  }
}

/** Conditions of IF v1 (`{string: [...], number: [...], boolean: [...]}`) as our content. */
export function legacyConditionsOf(
  conditions: any,
  combine: unknown,
  tools: N8nImportTools
): ConditionContent {
  const comparisons: Comparison[] = []
  for (const kind of ['string', 'number', 'boolean', 'dateTime']) {
    for (const item of conditions?.[kind] ?? []) {
      const operation = String(item?.operation ?? 'equal')
      const found = comparisonOf(item?.value1, operation, item?.value2, tools)
      if (found) comparisons.push(found)
    }
  }
  return { comparisons, logicalOperator: combine === 'any' ? 'OR' : 'AND' }
}

/** Name/value pairs of n8n's fixedCollection lists (`{parameters: [{name, value}]}`). */
export function pairsOf(collection: any, text: (value: unknown) => string, key = 'parameters') {
  const list = Array.isArray(collection?.[key]) ? collection[key] : []
  return list
    .filter((pair: any) => pair && typeof pair.name === 'string' && pair.name !== '')
    .map((pair: any) => ({ key: text(pair.name), value: text(pair.value) }))
}
