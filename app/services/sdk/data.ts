import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import env from '#start/env'
import { storageRoot } from '#services/storage'
import { BlockedRequestError, isInternalAddress, type LookupFunction } from '#plugins/guarded_http'
import { sqliteFileOf } from '#sdk/data'

/**
 * The app's side of `#sdk/data` (`@flowcraft/sdk/data`): database hosts under the HTTP
 * block's internal-address rule, and workspaces' SQLite files in the app's storage. See
 * docs/security.md, "Database blocks".
 */

/** Whether database hosts may be internal addresses: the HTTP block's ALLOW_INTERNAL_HTTP. */
export function internalHostsAllowed(): boolean {
  return Boolean(env.get('ALLOW_INTERNAL_HTTP'))
}

/**
 * The address to connect to for a host, under the HTTP block's internal-address rule; the
 * caller's `allowInternal` (a pool's target) replaces the operator's setting when given.
 */
export function checkDatabaseHost(hostname: string, options: { allowInternal?: boolean } = {}) {
  return resolveDatabaseHost(hostname, {
    allowInternal: options.allowInternal ?? internalHostsAllowed(),
  })
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

/**
 * The address to connect to for a database host. Unless internal networks are allowed, the
 * host must resolve only to public addresses, and the caller connects to the address checked
 * here (not to the name again), so a DNS answer that changes after the check reaches nothing
 * internal.
 */
export async function resolveDatabaseHost(
  hostname: string,
  options: { allowInternal: boolean; lookup?: LookupFunction }
): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, '')
  if (!host) throw new BlockedRequestError('The connection URL has no host')
  if (options.allowInternal) return host
  let addresses: string[]
  if (isIP(host)) {
    addresses = [host]
  } else {
    try {
      const found = await (options.lookup ?? ((name) => dnsLookup(name, { all: true })))(host)
      addresses = found.map((entry) => entry.address)
    } catch (error: any) {
      throw new BlockedRequestError(`Could not resolve the host ${host}`, { code: error?.code })
    }
    if (addresses.length === 0) throw new BlockedRequestError(`Could not resolve the host ${host}`)
  }
  const internal = addresses.filter((address) => isInternalAddress(address))
  if (internal.length > 0) {
    throw new BlockedRequestError(
      `Connections to internal network addresses are not allowed (${host} resolves to ${internal.join(', ')}). ` +
        'An administrator can allow them with ALLOW_INTERNAL_HTTP=true.'
    )
  }
  return addresses[0]
}

/**
 * A `net.connect` lookup applying the same rule at connect time, for drivers that find their
 * hosts themselves (MongoDB's SRV records and replica-set members): every name the driver
 * connects to is resolved here and refused when an address is internal.
 */
export function checkedLookup(options: { allowInternal: boolean; lookup?: LookupFunction }) {
  return (
    hostname: string,
    lookupOptions: { all?: boolean } | number | undefined,
    callback: (error: Error | null, address: any, family?: number) => void
  ) => {
    resolveDatabaseHost(hostname, options).then(
      (address) => {
        const family = isIP(address) || 4
        const all = typeof lookupOptions === 'object' && lookupOptions?.all
        if (all) callback(null, [{ address, family }])
        else callback(null, address, family)
      },
      (error) => callback(error, undefined)
    )
  }
}
