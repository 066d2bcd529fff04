/**
 * `#sdk/data`: what database plugins share on the server: SQL built with bound values and
 * checked names, pools per credential closed when idle, the runners of the SQL actions, the
 * internal-address rule for database hosts and the place of a workspace's SQLite files.
 * See docs/plugins.md and docs/security.md, "Database blocks".
 */
import env from '#start/env'
import { storageRoot } from '#services/storage'
import { checkedLookup, resolveDatabaseHost } from '../plugins/data/connections.js'
import { sqliteFileOf } from '../plugins/data/sql.js'

export * from '../plugins/data/sql.js'
export * from '../plugins/data/sql_runners.js'
export * from '../plugins/data/records_api.js'
export { IdleCache, DATA_IDLE_CLOSE_MS } from '../plugins/data/connections.js'

/** Whether database hosts may be internal addresses: the HTTP block's ALLOW_INTERNAL_HTTP. */
export function internalHostsAllowed(): boolean {
  return Boolean(env.get('ALLOW_INTERNAL_HTTP'))
}

/** The address to connect to for a host, under the HTTP block's internal-address rule. */
export function checkDatabaseHost(hostname: string) {
  return resolveDatabaseHost(hostname, { allowInternal: internalHostsAllowed() })
}

/** The path of a workspace's SQLite database file (created folder, checked name). */
export function workspaceSqliteFile(workspaceId: string | undefined, fileName: unknown) {
  if (!workspaceId) throw new Error('SQLite databases belong to a workspace')
  return sqliteFileOf(storageRoot(), workspaceId, fileName)
}

/**
 * A `net.connect` lookup for drivers that resolve hosts themselves: each name is checked on
 * its resolved addresses under the same rule when the driver connects.
 */
export function databaseHostLookup() {
  // Allowed internal networks leave resolution to the driver.
  return internalHostsAllowed() ? undefined : checkedLookup({ allowInternal: false })
}
