import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'

/*
| What the capability service derives from the database (the marketplace's switches per
| plan, which plan judges a workspace) is cached per process and tagged with a counter in
| capability_stamps. Every check reads that one row; when another process (or this one)
| moved it, the caches are emptied and read again. A change made through the admin
| endpoint is therefore seen by every process at its next check, with or without Redis
| (docs/architecture.md, "Capabilities").
*/

const STAMP_ID = 'capabilities'

const caches = new Set<Map<string, Promise<unknown>>>()
let seen: number | undefined

async function readStamp(): Promise<number> {
  const row = await db.from('capability_stamps').where('id', STAMP_ID).select('version').first()
  return Number(row?.version ?? 0)
}

function clearAll() {
  for (const cache of caches) cache.clear()
}

async function sync() {
  const version = await readStamp()
  if (version !== seen) {
    clearAll()
    seen = version
  }
}

/**
 * A per-process cache whose entries last until the stamp moves. Concurrent misses of one
 * key share one load; a failed load is not kept.
 */
export function stampedCache<T>() {
  const entries = new Map<string, Promise<T>>()
  caches.add(entries as Map<string, Promise<unknown>>)
  return async function cached(key: string, load: () => Promise<T>): Promise<T> {
    await sync()
    let hit = entries.get(key)
    if (!hit) {
      hit = load()
      entries.set(key, hit)
      hit.catch(() => {
        if (entries.get(key) === hit) entries.delete(key)
      })
    }
    return hit
  }
}

/**
 * Call after writing what capabilities derive from (plugin switches, plans, a user's
 * plan): every process re-reads at its next check. Called after the write, so that a
 * process reading in between caches the new data, never the old under the new stamp.
 */
export async function capabilitiesChanged() {
  const moved = await db.from('capability_stamps').where('id', STAMP_ID).increment('version', 1)
  const count = Array.isArray(moved) ? Number(moved[0] ?? 0) : Number(moved)
  if (!count) {
    await db.table('capability_stamps').insert({ id: STAMP_ID, version: 1 })
  }
  clearAll()
}

/**
 * For model hooks: moves the stamp once the write is visible to other connections (after
 * the commit when the model is saved inside a transaction).
 */
export async function capabilitiesChangedAfterWrite(model: {
  $trx?: { after(event: 'commit', handler: () => void): void }
}) {
  // Not awaited by the write: callers that answer at once (setPluginEnabled) move it too.
  if (model.$trx) {
    model.$trx.after('commit', () => {
      capabilitiesChanged().catch((error) => logger.error({ err: error }, 'capability stamp'))
    })
  } else await capabilitiesChanged()
}
