/**
 * `#sdk/plugin`: what a plugin's manifest (index.ts) is built with: definePlugin, the field
 * DSL, the common fields, and the runner types. Browser-safe: the editor bundle imports every
 * manifest, so nothing here may reach Node. See docs/plugins.md and docs/architecture.md.
 */
export * from '../plugins/define_plugin.js'
export * from '../plugins/fields.js'
export * from '../plugins/common_fields.js'
