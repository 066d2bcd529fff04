import { createContext, useContext } from 'react'
import { schemaPaths, type OutputSchema } from '../../../app/plugins/output_schema.js'

/**
 * What `{{` completion offers in the fields of both editors (docs/workflows.md,
 * "Expressions"): the flow's variables, and in a workflow `$input`, `$trigger` and the nodes
 * before the open one with their fields. Pure apart from the context, so that the text
 * fields, the code editor and the tests share one list.
 */

/** A variable as the forms know it (types.ts: not imported, which unit tests could not load). */
interface FormVariable {
  id: string
  name: string
}

/** A node the open node can read (`{{$node["Title"].path}}`). */
export interface ScopeNode {
  id: string
  /** What the builder sees (its title, else its type's name). */
  title: string
  /** What the reference names: the title, or the id of an untitled node (the engine reads both). */
  name?: string
  /** Its output in the last test run, when there is one: where its fields come from. */
  sample?: unknown
  /** Before any run: the output its plugin declares (or its pinned data's shape). */
  schema?: OutputSchema
}

export interface ExpressionScope {
  variables: readonly FormVariable[]
  /** Workflows only: the data of the run (the bot editor has none). */
  references?: {
    /** The open node's input in the last test run, when it ran. */
    input?: unknown
    /** Without a run: the shape of the input the open node will receive. */
    inputSchema?: OutputSchema
    /** The trigger's data in the last test run, else its pinned data. */
    trigger?: unknown
    /** Without run or pinned data: the output the trigger declares. */
    triggerSchema?: OutputSchema
    /** Nodes that run before the open one, nearest first. */
    nodes: readonly ScopeNode[]
  }
  /** Makes a variable of that name (or finds it); absent where the builder cannot. */
  createVariable?: (name: string) => FormVariable | undefined
}

export const ExpressionScopeContext = createContext<ExpressionScope | null>(null)

/**
 * The scope of the fields below: the editor's, else the form's own variables (a form
 * drawn outside an editor panel).
 */
export function useExpressionScope(variables: readonly FormVariable[]): ExpressionScope {
  return useContext(ExpressionScopeContext) ?? { variables }
}

export interface Suggestion {
  /** Unique in one list (React key, option id). */
  key: string
  label: string
  kind: 'variable' | 'data' | 'node' | 'field' | 'create'
  /** A sample value beside a field's path. */
  detail?: string
  /** What goes between the braces once chosen. */
  text: string
  /** Chosen, the braces stay open and the list goes on (a node's fields follow). */
  open?: boolean
  /** Chosen, a variable of this name is made first. */
  create?: string
}

/** `{{` and what follows it up to the cursor, while a reference is being typed. */
export const OPEN_EXPRESSION = /\{\{([^{}\n]*)$/

const MAX_SUGGESTIONS = 50
const MAX_DEPTH = 4

/** How a sample value reads beside its path: short, on one line. */
function preview(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length}]`
  if (value !== null && typeof value === 'object') return '{…}'
  const text = value === undefined ? '' : String(value)
  return text.length > 24 ? `${text.slice(0, 23)}…` : text
}

/**
 * Every path of a sample value, parents before children: `status`, `body`, `body.items`,
 * `body.items[0]`, `body.items[0].name`. Lists show their first item only. Keys holding a
 * dot or a bracket cannot be named by a path (app/plugins/json_path.ts) and are left out.
 */
export function samplePaths(sample: unknown, prefix = '', depth = 0): [string, unknown][] {
  if (depth >= MAX_DEPTH || sample === null || typeof sample !== 'object') return []
  const entries: [string, unknown][] = Array.isArray(sample)
    ? sample.length > 0
      ? [['[0]', sample[0]]]
      : []
    : Object.entries(sample).filter(([key]) => key !== '' && !/[.[\]]/.test(key))
  const paths: [string, unknown][] = []
  for (const [key, value] of entries) {
    const path = key.startsWith('[') ? `${prefix}${key}` : prefix ? `${prefix}.${key}` : key
    paths.push([path, value])
    paths.push(...samplePaths(value, path, depth + 1))
  }
  return paths
}

function hasFields(sample: unknown, schema?: OutputSchema) {
  return samplePaths(sample).length > 0 || (!!schema && schemaPaths(schema).length > 0)
}

/** A node as a reference names it: by title in quotes, so that any title works. */
export function nodeReference(node: ScopeNode) {
  return `$node[${JSON.stringify(node.name ?? node.title)}]`
}

/**
 * The fields after `base`: a run's sample with its values, else the declared schema with
 * the type of each field beside it.
 */
function fieldSuggestions(
  base: string,
  sample: unknown,
  typed: string,
  schema?: OutputSchema
): Suggestion[] {
  const needle = typed.toLowerCase()
  const fromSample = samplePaths(sample)
  const paths: [string, string][] =
    fromSample.length > 0 || !schema
      ? fromSample.map(([path, value]) => [path, preview(value)])
      : schemaPaths(schema)
  return paths
    .filter(([path]) => path.toLowerCase().includes(needle))
    .map(([path, detail]) => ({
      key: `${base}.${path}`,
      label: path,
      kind: 'field' as const,
      detail,
      text: path.startsWith('[') ? `${base}${path}` : `${base}.${path}`,
    }))
}

function findNode(nodes: readonly ScopeNode[], name: string) {
  return (
    nodes.find((node) => node.id === name) ??
    nodes.find((node) => (node.name ?? node.title) === name) ??
    nodes.find((node) => node.title.trim().toLowerCase() === name.trim().toLowerCase())
  )
}

/** After `$node["Title"]` or `$node.Title`: the node and the path typed after it. */
function parseNodeQuery(query: string) {
  const quoted = /^\$node\[\s*(["'])(.*?)\1\s*\]\.?(.*)$/.exec(query)
  if (quoted) return { name: quoted[2], rest: quoted[3] }
  const bare = /^\$node\.([^.[]+)\.(.*)$/.exec(query)
  if (bare) return { name: bare[1], rest: bare[2] }
  return undefined
}

/**
 * The suggestions for what was typed after `{{`: fields once a node, `$input` or
 * `$trigger` is named, else variables, `$input`, `$trigger` and the nodes matching the text,
 * and "Create variable" for a plain name no variable has.
 */
export function suggest(query: string, scope: ExpressionScope): Suggestion[] {
  const typed = query.trimStart()
  const references = scope.references
  if (references && typed.startsWith('$')) {
    const nodeQuery = parseNodeQuery(typed)
    if (nodeQuery) {
      const node = findNode(references.nodes, nodeQuery.name)
      if (!node) return []
      return fieldSuggestions(nodeReference(node), node.sample, nodeQuery.rest, node.schema).slice(
        0,
        MAX_SUGGESTIONS
      )
    }
    const data = /^\$(input|trigger)\.(.*)$/.exec(typed)
    if (data) {
      const input = data[1] === 'input'
      const sample = input ? references.input : references.trigger
      const schema = input ? references.inputSchema : references.triggerSchema
      return fieldSuggestions(`$${data[1]}`, sample, data[2], schema).slice(0, MAX_SUGGESTIONS)
    }
  }

  const needle = typed.trim().toLowerCase()
  const matches = (...texts: string[]) =>
    needle === '' || texts.some((text) => text.toLowerCase().includes(needle))
  const list: Suggestion[] = scope.variables
    .filter((variable) => matches(variable.name))
    .map((variable) => ({
      key: `variable:${variable.id}`,
      label: variable.name,
      kind: 'variable' as const,
      text: variable.name,
    }))
  if (references) {
    for (const name of ['input', 'trigger'] as const) {
      const schema = name === 'input' ? references.inputSchema : references.triggerSchema
      const open = hasFields(references[name], schema)
      if (!matches(`$${name}`)) continue
      list.push({
        key: `$${name}`,
        label: `$${name}`,
        kind: 'data',
        text: open ? `$${name}.` : `$${name}`,
        open,
      })
    }
    for (const node of references.nodes) {
      if (!matches(node.title, nodeReference(node))) continue
      const open = hasFields(node.sample, node.schema)
      list.push({
        key: `node:${node.id}`,
        label: node.title,
        kind: 'node',
        text: open ? `${nodeReference(node)}.` : nodeReference(node),
        open,
      })
    }
  }
  const name = typed.trim()
  const creatable =
    scope.createVariable &&
    name !== '' &&
    !name.startsWith('$') &&
    !name.startsWith('=') &&
    !scope.variables.some((variable) => variable.name === name)
  const shown = list.slice(0, MAX_SUGGESTIONS)
  if (creatable)
    shown.push({ key: `create:${name}`, label: name, kind: 'create', text: name, create: name })
  return shown
}

/**
 * Chooses a suggestion in a text: replaces the open `{{...` before `cursor` (and a `}}`
 * right after it) and gives the new text and cursor. Null when no reference is open there.
 */
export function applySuggestion(
  text: string,
  cursor: number,
  suggestion: Suggestion
): { text: string; cursor: number } | null {
  const before = text.slice(0, cursor)
  const match = OPEN_EXPRESSION.exec(before)
  if (!match) return null
  const start = cursor - match[0].length
  const closes = suggestion.open ? 0 : text.slice(cursor).startsWith('}}') ? 2 : 0
  const insert = suggestion.open ? `{{${suggestion.text}` : `{{${suggestion.text}}}`
  return {
    text: text.slice(0, start) + insert + text.slice(cursor + closes),
    cursor: start + insert.length,
  }
}
