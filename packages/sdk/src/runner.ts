/**
 * `@flowcraft/sdk/runner`: what a plugin's server-side files (runner.ts, credentials.ts) use
 * beyond `@flowcraft/sdk/plugin`: workflow node types, variable substitution, JSON paths,
 * event-trigger hooks, session callbacks, the credentials check, the vector store
 * backend a plugin may offer knowledge stores, and the chat's messages and rich-text
 * conversions (`@flowcraft/sdk/chat`), which bubble runners return.
 */
export type * from './workflow.js'
export * from './json_path.js'
export * from './substitute.js'
export * from './event_trigger.js'
export type * from './sessions.js'
export type * from './credentials.js'
export type * from './vector_store.js'
export * from './chat.js'
