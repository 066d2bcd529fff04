/**
 * `#sdk/google_fields` (browser and server): the credentials and `oauth` declaration of the
 * Google plugins, as the SDK package declares them (`@flowcraft/sdk/google`).
 */
export * from '../../packages/sdk/src/google_fields.js'
