/**
 * `#sdk/http` (server): the outgoing HTTP request block as the SDK package declares it
 * (`@flowcraft/sdk/http`); the app runs it (app/services/sdk/http_request.ts).
 */
export * from '../../packages/sdk/src/http.js'
