import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { BlockedRequestError, isInternalAddress, type LookupFunction } from '../guarded_http.js'

/**
 * What the database plugins share about reaching a server: the internal-address rule of the
 * HTTP block applied to database hosts, and a cache of connections (pools, clients) per
 * credential that closes what has not been used for a while. docs/security.md, "Database
 * blocks".
 */

/** A pool or client unused this long is closed (its next run opens a new one). */
export const DATA_IDLE_CLOSE_MS = 5 * 60_000

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

/** Every cache made, so the process closes all database connections when it stops. */
const caches = new Set<IdleCache<any>>()

/** Closes the pools and clients of every data plugin (the app's terminating hook). */
export async function closeDataConnections() {
  await Promise.all([...caches].map((cache) => cache.closeAll()))
}

interface CachedEntry<T> {
  value: Promise<T>
  timer?: NodeJS.Timeout
}

/**
 * Connections kept per key (a hash of the credential), created on first use and closed once
 * unused for `idleMs`. Runs of every bot and workflow of the process share them: a chat turn
 * borrows a pooled connection instead of opening its own.
 */
export class IdleCache<T> {
  readonly #entries = new Map<string, CachedEntry<T>>()

  constructor(
    private readonly close: (value: T) => Promise<void>,
    private readonly idleMs = DATA_IDLE_CLOSE_MS
  ) {
    caches.add(this)
  }

  /** The cached value of `key`, made by `create` when there is none. */
  use(key: string, create: () => Promise<T>): Promise<T> {
    let entry = this.#entries.get(key)
    if (!entry) {
      const made: CachedEntry<T> = { value: create() }
      entry = made
      this.#entries.set(key, made)
      // A failed creation (refused host, bad URL) is not kept: the next run tries again.
      made.value.catch(() => {
        if (this.#entries.get(key) === made) this.#entries.delete(key)
      })
    }
    this.#touch(key, entry)
    return entry.value
  }

  get size() {
    return this.#entries.size
  }

  #touch(key: string, entry: CachedEntry<T>) {
    if (entry.timer) clearTimeout(entry.timer)
    entry.timer = setTimeout(() => void this.#evict(key, entry), this.idleMs)
    entry.timer.unref()
  }

  async #evict(key: string, entry: CachedEntry<T>) {
    if (this.#entries.get(key) !== entry) return
    this.#entries.delete(key)
    if (entry.timer) clearTimeout(entry.timer)
    const value = await entry.value.catch(() => undefined)
    if (value !== undefined) await this.close(value).catch(() => {})
  }

  /** Closes everything (shutdown, tests). */
  async closeAll() {
    await Promise.all([...this.#entries.entries()].map(([key, entry]) => this.#evict(key, entry)))
  }
}
