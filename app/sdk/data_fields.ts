/**
 * `#sdk/data_fields`: the option blocks the SQL database plugins share (tables, columns,
 * conditions, records, a raw query). Browser-safe, like `#sdk/plugin`.
 */
export * from '../plugins/data/sql_fields.js'
