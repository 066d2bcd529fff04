/**
 * `#sdk/brain` (server): the operator's brain service as the SDK declares it; the app calls
 * it (app/services/sdk/brain.ts) with the address its configuration gives.
 */
export * from '../../packages/sdk/src/brain.js'
