/** `#sdk/data_fields`: the option blocks the SQL database plugins share. Browser-safe. */
export * from '../../packages/sdk/src/data_fields.js'
