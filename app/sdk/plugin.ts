/**
 * `#sdk/plugin`: the SDK package's `@flowcraft/sdk/plugin` (packages/sdk), so folder plugins
 * and plugin packages build against one declaration. Browser-safe. See docs/plugins.md.
 */
export * from '../../packages/sdk/src/plugin.js'
