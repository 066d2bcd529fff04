import { readPath } from '#plugins/json_path'
import type { VariableValue } from '#plugins/define_plugin'
import type { WorkflowBlock } from '#shared/workflow/types'
import type { RunVariable } from './ports.js'

/**
 * References to node data inside node options (README.md, "References"):
 *
 *   {{$input}}  {{$input.path}}                      the running node's input
 *   {{$trigger}}  {{$trigger.path}}                  the trigger's data (its node's output)
 *   {{$node.<id or title>.path}}                     the latest output of another node
 *   {{$node["Title with. dots"].path}}               the same, for titles with dots
 *
 * The leading `$` keeps them apart from {{Variable}} names. They are turned into extra
 * variables whose name is the reference's text, so the one substitution pass of the
 * runner context replaces variables and references alike and a substituted value is never
 * read again as a reference.
 */

const REFERENCE = /\{\{\s*(\$(?:input|trigger|node)\b[^{}]*?)\s*\}\}/g

export type ParsedReference =
  | { kind: 'input'; path: string }
  | { kind: 'trigger'; path: string }
  | { kind: 'node'; node: string; path: string }

function trimPath(rest: string): string | undefined {
  if (rest === '') return ''
  if (rest.startsWith('.')) return rest.slice(1)
  if (rest.startsWith('[')) return rest
  return undefined
}

/**
 * Reads `$input.a.b`, `$trigger.a` or `$node.X.a` (without braces); undefined when it is
 * none of them.
 */
export function parseReference(inner: string): ParsedReference | undefined {
  const text = inner.trim()
  for (const kind of ['input', 'trigger'] as const) {
    if (!text.startsWith(`$${kind}`)) continue
    const path = trimPath(text.slice(kind.length + 1))
    return path === undefined ? undefined : { kind, path }
  }
  if (!text.startsWith('$node')) return undefined
  const rest = text.slice('$node'.length)
  const quoted = rest.match(/^\[\s*(["'])(.*?)\1\s*\]/)
  if (quoted) {
    const path = trimPath(rest.slice(quoted[0].length))
    return path === undefined ? undefined : { kind: 'node', node: quoted[2], path }
  }
  const bare = rest.match(/^\.([^.[]+)/)
  if (!bare) return undefined
  const path = trimPath(rest.slice(bare[0].length))
  return path === undefined ? undefined : { kind: 'node', node: bare[1].trim(), path }
}

/**
 * The reference texts found in a value (every string, nested ones included), so a
 * comparison whose variable is a reference ("{{$input.status}}") is found as well.
 */
export function findReferences(value: unknown, found = new Map<string, string>()) {
  if (typeof value === 'string') {
    if (value.includes('{{$') || value.includes('{{ $')) {
      for (const match of value.matchAll(REFERENCE)) found.set(match[0], match[1])
    }
  } else if (Array.isArray(value)) {
    for (const item of value) findReferences(item, found)
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) findReferences(item, found)
  }
  return found
}

/** How a referenced value reads as a variable: lists and objects become JSON text. */
export function toReferenceValue(value: unknown): VariableValue {
  if (value === undefined || value === null) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value
  }
  return JSON.stringify(value)
}

export interface ReferenceScope {
  input: unknown
  /** The trigger's data: the output of the trigger node, the run's input until it ran. */
  trigger: unknown
  blocks: readonly WorkflowBlock[]
  outputs: Record<string, unknown>
}

function nodeIdOf(name: string, blocks: readonly WorkflowBlock[]): string | undefined {
  return (
    blocks.find((block) => block.id === name)?.id ??
    blocks.find((block) => block.title === name)?.id ??
    blocks.find((block) => block.title?.trim().toLowerCase() === name.toLowerCase())?.id
  )
}

/** The value a reference points at, or undefined when nothing is there (yet). */
export function resolveReference(reference: ParsedReference, scope: ReferenceScope): unknown {
  if (reference.kind === 'input') return readPath(scope.input, reference.path)
  if (reference.kind === 'trigger') return readPath(scope.trigger, reference.path)
  const id = nodeIdOf(reference.node, scope.blocks)
  if (!id || !(id in scope.outputs)) return undefined
  return readPath(scope.outputs[id], reference.path)
}

/**
 * One extra variable per reference used by the block (options and branches). Its id is the
 * reference with its braces, so that a comparison can name it as its variable; its name is
 * the text between the braces, which is what {{...}} substitution looks up.
 */
export function referenceVariables(block: WorkflowBlock, scope: ReferenceScope): RunVariable[] {
  const found = findReferences(block.options)
  findReferences(block.conditions, found)
  const variables: RunVariable[] = []
  for (const [raw, inner] of found) {
    const parsed = parseReference(inner)
    if (!parsed) continue
    variables.push({
      id: raw,
      name: inner.trim(),
      value: toReferenceValue(resolveReference(parsed, scope)),
    })
  }
  return variables
}
