import { appPort } from '../port.js'

/**
 * What a database plugin asks the app before it connects: whether a host may be reached (the
 * same internal-address rule as the HTTP block), a lookup for drivers that resolve names
 * themselves, and the file of a workspace's SQLite database. The app answers from its
 * configuration and storage.
 */

/** A `net.connect`-style lookup: each name is checked on its resolved addresses. */
export type DatabaseHostLookup = (
  hostname: string,
  options: { all?: boolean } | number | undefined,
  callback: (error: Error | null, address: any, family?: number) => void
) => void

/** The app's side of this module (see port.ts). */
export interface DataPort {
  internalHostsAllowed: typeof internalHostsAllowed
  checkDatabaseHost: typeof checkDatabaseHost
  workspaceSqliteFile: typeof workspaceSqliteFile
  databaseHostLookup: typeof databaseHostLookup
}

/** Whether database hosts may be internal addresses (the app's ALLOW_INTERNAL_HTTP). */
export function internalHostsAllowed(): boolean {
  return appPort('data').internalHostsAllowed()
}

/**
 * The address to connect to for a host (connect to it, not to the name again); a refused
 * (internal) host throws. `allowInternal` replaces the operator's setting for this call.
 */
export async function checkDatabaseHost(
  hostname: string,
  options: { allowInternal?: boolean } = {}
): Promise<string> {
  return appPort('data').checkDatabaseHost(hostname, options)
}

/** The path of a workspace's SQLite database file (created folder, checked name). */
export function workspaceSqliteFile(workspaceId: string | undefined, fileName: unknown): string {
  return appPort('data').workspaceSqliteFile(workspaceId, fileName)
}

/**
 * A lookup for drivers that resolve hosts themselves, checking each name when the driver
 * connects; undefined when internal hosts are allowed (the driver resolves as it likes).
 */
export function databaseHostLookup(): DatabaseHostLookup | undefined {
  return appPort('data').databaseHostLookup()
}
