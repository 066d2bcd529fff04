/**
 * The option blocks the SQL database plugins share (tables, columns, conditions, records, a
 * raw query): `#sdk/data_fields` in the app, part of `@flowcraft/sdk/data` in the package.
 * Browser-safe, like the manifest side of the plugin contract.
 */
export * from './data/sql_fields.js'
