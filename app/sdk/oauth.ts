/**
 * `#sdk/oauth` (server): OAuth 2 bearer calls as the SDK package declares them
 * (`@flowcraft/sdk/oauth`); the app implements them (app/services/sdk/oauth.ts).
 */
export * from '../../packages/sdk/src/oauth.js'
