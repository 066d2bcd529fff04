/**
 * `@flowcraft/sdk/data` (server; `#sdk/data` in the app): what database plugins share. SQL
 * built with bound values and checked names, pools per credential closed when idle (knex,
 * with the pg, mysql2 or better-sqlite3 driver installed beside it), the runners of the SQL
 * actions, the records API, and what they ask the app before connecting (hosts.ts: the
 * internal-address rule for database hosts, the place of a workspace's SQLite files). See
 * docs/plugins.md and docs/security.md, "Database blocks".
 */
export * from './data/hosts.js'
export * from './data/connections.js'
export * from './data/sql.js'
export * from './data/sql_runners.js'
export * from './data/records_api.js'
export * from './data_fields.js'
