/**
 * `#sdk/google` (server): calls to Google's REST APIs as the SDK package declares them
 * (`@flowcraft/sdk/google`); the app implements them (app/services/sdk/google.ts).
 */
export * from '../../packages/sdk/src/google.js'
