/**
 * `#sdk/n8n`: what a plugin needs to take over nodes of an n8n workflow export, as the SDK
 * package declares it (`@flowcraft/sdk/n8n`); the app's importer implements the helpers
 * (app/services/n8n_import/expressions.ts).
 */
export * from '../../packages/sdk/src/n8n.js'
