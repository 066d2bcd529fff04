/**
 * What a workflow node outputs, declared by its plugin (`outputSchema` in the manifest), so
 * the editor can offer the node's fields before any test run: in the `{{` completion and in
 * the node panel's Schema view. Browser-safe and pure: manifests import it.
 *
 * A declaration is a schema, `'input'` for a node whose output is its input (it passes its
 * data on), or a function of the node's options for an output they shape (a manual
 * trigger's test input).
 */

export type OutputSchema =
  | { type: 'string' | 'number' | 'boolean' | 'any' }
  | { type: 'object'; properties: Readonly<Record<string, OutputSchema>> }
  | { type: 'array'; items?: OutputSchema }

export type OutputSchemaDeclaration =
  | OutputSchema
  | 'input'
  | ((options: Record<string, unknown>) => OutputSchema | 'input' | undefined)

/** Builders, so a manifest reads `output.object({ body: output.any() })`. */
export const output = {
  string: (): OutputSchema => ({ type: 'string' }),
  number: (): OutputSchema => ({ type: 'number' }),
  boolean: (): OutputSchema => ({ type: 'boolean' }),
  any: (): OutputSchema => ({ type: 'any' }),
  object: (properties: Record<string, OutputSchema>): OutputSchema => ({
    type: 'object',
    properties,
  }),
  array: (items?: OutputSchema): OutputSchema => ({ type: 'array', items }),
}

/** The schema of a value (a pinned sample, a test input): its keys and their types. */
export function schemaOfValue(value: unknown, depth = 0): OutputSchema {
  if (depth > 6) return { type: 'any' }
  if (typeof value === 'string') return { type: 'string' }
  if (typeof value === 'number') return { type: 'number' }
  if (typeof value === 'boolean') return { type: 'boolean' }
  if (Array.isArray(value)) {
    return {
      type: 'array',
      items: value.length > 0 ? schemaOfValue(value[0], depth + 1) : undefined,
    }
  }
  if (value !== null && typeof value === 'object') {
    return {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, schemaOfValue(item, depth + 1)])
      ),
    }
  }
  return { type: 'any' }
}

/**
 * The declared output of a node with these options; undefined when the plugin declares none
 * (or its function fails on options it did not expect).
 */
export function outputSchemaOf(
  declaration: OutputSchemaDeclaration | undefined,
  options: Record<string, unknown> = {}
): OutputSchema | 'input' | undefined {
  if (typeof declaration !== 'function') return declaration
  try {
    return declaration(options)
  } catch {
    return undefined
  }
}

/**
 * Every path of a schema with its type, parents first (`body`, `body.items`,
 * `body.items[0]`, `body.items[0].name`), as the `{{` completion lists a sample's paths.
 */
export function schemaPaths(schema: OutputSchema, prefix = '', depth = 0): [string, string][] {
  if (depth >= 4) return []
  const entries: [string, OutputSchema][] =
    schema.type === 'object'
      ? Object.entries(schema.properties).filter(([key]) => key !== '' && !/[.[\]]/.test(key))
      : schema.type === 'array' && schema.items
        ? [['[0]', schema.items]]
        : []
  const paths: [string, string][] = []
  for (const [key, item] of entries) {
    const path = key.startsWith('[') ? `${prefix}${key}` : prefix ? `${prefix}.${key}` : key
    paths.push([path, item.type])
    paths.push(...schemaPaths(item, path, depth + 1))
  }
  return paths
}
