/**
 * `@flowcraft/sdk/plugin`: what a plugin's manifest (index.ts) is built with: definePlugin,
 * the field DSL, the common fields and the runner types. Browser-safe: editors import every
 * manifest, so nothing reachable from here may import Node.
 */
export * from './define_plugin.js'
export * from './fields.js'
export * from './common_fields.js'
export * from './output_schema.js'
