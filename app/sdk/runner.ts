/**
 * `#sdk/runner`: what a plugin's server-side files (runner.ts, credentials.ts) may use
 * beyond `#sdk/plugin`: workflow node types, variable substitution, JSON paths, event
 * trigger types, the credentials test context and the chat message types.
 */
export * from '../../packages/sdk/src/runner.js'
