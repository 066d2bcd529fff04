/**
 * `#sdk/http_fields` (browser and server): the options of an outgoing HTTP request block, as
 * the SDK package declares them (`@flowcraft/sdk/http`).
 */
export * from '../../packages/sdk/src/http_fields.js'
