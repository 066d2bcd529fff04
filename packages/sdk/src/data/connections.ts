/**
 * What the database plugins share about keeping connections: a cache of pools and clients
 * per credential that closes what has not been used for a while. Which hosts may be reached
 * is the app's rule (hosts.ts); docs/security.md, "Database blocks".
 */

/** A pool or client unused this long is closed (its next run opens a new one). */
export const DATA_IDLE_CLOSE_MS = 5 * 60_000

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
