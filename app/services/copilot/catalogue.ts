import type { Field, Fields } from '#plugins/fields'
import {
  categoryOn,
  forSurface,
  type ActionDeclaration,
  type PluginSurface,
} from '#plugins/define_plugin'
import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import type { PluginAvailability } from '#services/marketplace'

/**
 * What the copilot knows of the node and block types (docs/copilot.md "Catalogue"): read
 * from the plugin registry, as the editor's palette is, so a plugin added to the server is
 * known to the copilot without any change here. The list goes into the system prompt; the
 * fields of one type come back from the describe tool, so the prompt stays short.
 */

export interface CatalogueEntry {
  type: string
  name: string
  category: string
  description?: string
  /** Locked types exist but the builder's plan does not allow them. */
  available: boolean
}

export interface FieldDescription {
  name: string
  kind: string
  label?: string
  required?: boolean
  default?: unknown
  /** enum: the values it takes. */
  values?: string[]
  /** credentials: the type of credential record it names. */
  credentialType?: string
  /** object and list: the fields inside. */
  fields?: FieldDescription[]
  help?: string
}

export interface TypeDescription {
  type: string
  name: string
  category: string
  description?: string
  /** Options kept in `content` (bot bubbles) rather than `options`. */
  storedIn: 'options' | 'content'
  fields: FieldDescription[]
  actions?: { name: string; description?: string; fields: FieldDescription[] }[]
  /** The credential record type the block uses, when it takes one. */
  credentialType?: string
  /** Bots: blocks with items (choices, conditions) and what an item holds. */
  items?: FieldDescription[]
}

function describeFields(fields: Fields | undefined): FieldDescription[] {
  return Object.entries(fields ?? {})
    .filter(([, field]) => !field.hidden)
    .map(([name, field]) => describeField(name, field))
}

function describeField(name: string, field: Field): FieldDescription {
  const out: FieldDescription = { name, kind: field.kind }
  if (field.label) out.label = field.label
  if (field.required) out.required = true
  if (field.defaultValue !== undefined) out.default = field.defaultValue
  if (field.helperText) out.help = field.helperText
  if (field.kind === 'enum' && !field.optionsFrom) out.values = field.options.map((o) => o.value)
  if (field.kind === 'credentials') out.credentialType = field.credentialType
  if (field.kind === 'object' || field.kind === 'list') out.fields = describeFields(field.fields)
  return out
}

function credentialTypeOf(plugin: AnyPlugin): string | undefined {
  if (plugin.credentials) return plugin.id
  const field = Object.values((plugin.options ?? {}) as Fields).find(
    (candidate) => candidate.kind === 'credentials'
  )
  return field?.kind === 'credentials' ? field.credentialType : undefined
}

export function pluginsOn(registry: PluginRegistry, surface: PluginSurface): AnyPlugin[] {
  return surface === 'workflow' ? registry.forWorkflows() : registry.forBots()
}

/** Every type the editor of `surface` offers, hidden ones left out. */
export function catalogueOf(
  registry: PluginRegistry,
  surface: PluginSurface,
  availability: Map<string, PluginAvailability>
): CatalogueEntry[] {
  return pluginsOn(registry, surface)
    .filter((plugin) => availability.get(plugin.id) !== 'hidden')
    .map((plugin) => ({
      type: plugin.id,
      name: plugin.name,
      category: categoryOn(plugin, surface),
      ...(plugin.description ? { description: plugin.description } : {}),
      available: availability.get(plugin.id) === 'enabled',
    }))
}

export function describeType(plugin: AnyPlugin, surface: PluginSurface): TypeDescription {
  const view = forSurface(plugin, surface)
  const declared = (view.actions ?? {}) as Record<string, ActionDeclaration>
  const actions = Object.entries(declared).map(([name, action]) => ({
    name,
    ...(action.description ? { description: action.description } : {}),
    fields: describeFields(action.options),
  }))
  const description: TypeDescription = {
    type: plugin.id,
    name: plugin.name,
    category: categoryOn(plugin, surface),
    ...(plugin.description ? { description: plugin.description } : {}),
    storedIn: plugin.storedIn === 'content' ? 'content' : 'options',
    fields: describeFields(view.options),
  }
  if (actions.length > 0) description.actions = actions
  const credentialType = credentialTypeOf(plugin)
  if (credentialType) description.credentialType = credentialType
  if (view.items) description.items = describeFields(view.items.fields)
  return description
}

/** The catalogue as lines of the system prompt: "type | name | category | description". */
export function catalogueText(entries: CatalogueEntry[]): string {
  return entries
    .map(
      (entry) =>
        `- ${entry.type} | ${entry.name} | ${entry.category}` +
        (entry.description ? ` | ${entry.description}` : '') +
        (entry.available ? '' : ' | not on the builder’s plan')
    )
    .join('\n')
}

/** The names a type's options may use (shared fields and every action's), for refusals. */
export function optionNamesOf(plugin: AnyPlugin, surface: PluginSurface): Set<string> {
  const view = forSurface(plugin, surface)
  const names = new Set<string>(Object.keys(view.options ?? {}))
  for (const action of Object.values((view.actions ?? {}) as Record<string, ActionDeclaration>)) {
    for (const name of Object.keys(action.options ?? {})) names.add(name)
  }
  if (view.actions) names.add('action')
  return names
}
