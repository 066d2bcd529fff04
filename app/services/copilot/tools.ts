import type { PluginSurface } from '#plugins/define_plugin'
import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import { issuesOfBlock, type StoredBlock } from '#plugins/block_issues'
import type { PluginAvailability } from '#services/marketplace'
import type { CopilotCredentialDto } from '#shared/copilot'
import { catalogueOf, describeType, optionNamesOf, pluginsOn } from './catalogue.js'

/**
 * What both copilot adapters (workflow_adapter.ts, bot_adapter.ts) share: the tool
 * definitions sent to the model, the refusal a tool call answers with, and the checks every
 * change goes through before it touches the document (docs/copilot.md "Tools").
 */

/** A function tool as the OpenAI chat-completions protocol declares it. */
export interface ToolDefinition {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

export function tool(
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[] = []
): ToolDefinition {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties, required, additionalProperties: false },
    },
  }
}

/** A tool call the document's rules refuse: the model reads the reason and may try again. */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ToolRefusal'
  }
}

/** What a tool call may look at besides the document. */
export interface ToolContext {
  registry: PluginRegistry
  surface: PluginSurface
  availability: Map<string, PluginAvailability>
  /** The builder's credentials of every type, for describe (ids the options may name). */
  credentials: { id: string; name: string; type: string }[]
}

export interface ToolOutcome<D> {
  doc: D
  /** What the model reads back (JSON-serialisable). */
  result: unknown
}

/** One editor's document and its tools. */
export interface CopilotAdapter<D> {
  surface: PluginSurface
  tools: ToolDefinition[]
  /** The document as the model reads it (ids, types, options, links). */
  outline(doc: D): unknown
  apply(
    doc: D,
    name: string,
    args: Record<string, unknown>,
    context: ToolContext
  ): Promise<ToolOutcome<D>>
}

export const objectArg = { type: 'object', additionalProperties: true }

/** A parameter with a hint for the model (JSON Schema's description). */
export function hinted(schema: Record<string, unknown>, hint: string) {
  return { ...schema, ['description']: hint }
}
export const positionArg = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' } },
  required: ['x', 'y'],
}

/** Tools of both editors: the catalogue, one type's fields, and suggested replies. */
export const COMMON_TOOLS: ToolDefinition[] = [
  tool('list_node_types', 'Lists every node or block type this editor offers.', {}),
  tool(
    'describe_node_type',
    'The fields, actions and credentials of one node or block type. Call it before setting options.',
    { type: { type: 'string' } },
    ['type']
  ),
  tool(
    'suggest_replies',
    'Offers the builder up to 4 short replies to pick from after your answer.',
    { replies: { type: 'array', items: { type: 'string' }, maxItems: 4 } },
    ['replies']
  ),
]

export function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name]
  if (typeof value !== 'string' || !value.trim()) throw new ToolRefusal(`${name} is required`)
  return value.trim()
}

export function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name]
  return typeof value === 'string' && value.trim() ? value.trim() : undefined
}

export function recordArg(
  args: Record<string, unknown>,
  name: string
): Record<string, unknown> | undefined {
  const value = args[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolRefusal(`${name} must be an object`)
  }
  return value as Record<string, unknown>
}

export function positionOf(args: Record<string, unknown>): { x: number; y: number } | undefined {
  const value = args.position as { x?: unknown; y?: unknown } | undefined
  if (!value || typeof value !== 'object') return undefined
  const x = Number(value.x)
  const y = Number(value.y)
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined
}

/**
 * The plugin of a type the model names, refused as the editor's palette would refuse it:
 * unknown, not offered in this editor, or not on the builder's plan.
 */
export function pluginFor(type: string, context: ToolContext): AnyPlugin {
  const plugin = context.registry.get(type)
  const offered = plugin && pluginsOn(context.registry, context.surface).includes(plugin)
  if (!plugin || !offered) {
    throw new ToolRefusal(
      `Unknown ${context.surface === 'workflow' ? 'node' : 'block'} type "${type}". Call list_node_types for the types this editor offers.`
    )
  }
  if (context.availability.get(plugin.id) !== 'enabled') {
    throw new ToolRefusal(`"${plugin.name}" is not available on the builder's plan.`)
  }
  return plugin
}

/** Option names the type does not declare are refused, naming them (nothing is half-applied). */
export function assertKnownOptions(
  plugin: AnyPlugin,
  surface: PluginSurface,
  options: Record<string, unknown> | undefined
) {
  if (!options) return
  const known = optionNamesOf(plugin, surface)
  const unknown = Object.keys(options).filter((name) => !known.has(name))
  if (unknown.length > 0) {
    throw new ToolRefusal(
      `"${plugin.name}" has no field ${unknown.map((name) => `"${name}"`).join(', ')}. Its fields: ${[...known].join(', ') || 'none'}.`
    )
  }
  const action = options.action
  if (action !== undefined) {
    const actions = Object.keys(plugin.actions ?? {})
    if (typeof action !== 'string' || !actions.includes(action)) {
      throw new ToolRefusal(
        `"${plugin.name}" has no action "${String(action)}". Its actions: ${actions.join(', ')}.`
      )
    }
  }
}

/**
 * The document after a call, refused when its format's validator rejects it (`what`: "bot"
 * or "workflow"), naming the first problem.
 */
export function checkedDoc<D>(
  doc: D,
  what: string,
  result: { ok: true } | { ok: false; errors: { path: string; message: string }[] }
): D {
  if (!result.ok) {
    const first = result.errors[0]
    throw new ToolRefusal(
      `The ${what} would be invalid: ${first.path ? `${first.path}: ` : ''}${first.message}`
    )
  }
  return doc
}

/** A block's or node's issues as the model reads them back ("field: message"). */
export async function issuesOf(block: StoredBlock, context: ToolContext) {
  const plugin = context.registry.get(block.type)
  if (!plugin) return []
  const issues = await issuesOfBlock(plugin, block, context.surface)
  return issues.map((issue) => `${issue.field}: ${issue.message}`)
}

/** Answers the tools both editors share; undefined for the others. */
export function commonTool(
  name: string,
  args: Record<string, unknown>,
  context: ToolContext
): unknown {
  if (name === 'list_node_types') {
    return catalogueOf(context.registry, context.surface, context.availability)
  }
  if (name === 'describe_node_type') {
    const type = stringArg(args, 'type')
    const plugin = context.registry.get(type)
    if (!plugin || !pluginsOn(context.registry, context.surface).includes(plugin)) {
      throw new ToolRefusal(`Unknown type "${type}". Call list_node_types.`)
    }
    const description = describeType(plugin, context.surface)
    return {
      ...description,
      ...(description.credentialType
        ? {
            credentials: context.credentials
              .filter((record) => record.type === description.credentialType)
              .map((record) => ({ id: record.id, name: record.name })),
          }
        : {}),
    }
  }
  return undefined
}

export type { CopilotCredentialDto }
