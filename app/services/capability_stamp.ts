import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { hasPreparedStatements, runPrepared } from '#services/prepared_statements'

/*
| What the capability service derives from the database (the marketplace's switches per
| plan, which plan judges a workspace) is cached per process and tagged with a counter in
| capability_stamps. A check reads that one row; when another process (or this one) moved
| it, the caches are emptied and read again. A change made through the admin endpoint is
| therefore seen by every process at its next check, with or without Redis
| (docs/architecture.md, "Capabilities").
|
| Inside a turn (a chat turn) the row is read once, at the turn's first check, and every
| later check of the turn uses what that read decided: a turn that runs twenty blocks pays
| one read, not twenty. A continueChat turn pays none of its own: its session read brings
| the stamp along (chat_store.ts) and opens the turn with it. The turn is an explicit
| argument (CapabilityTurn), not an AsyncLocalStorage: once a store is entered, Node runs
| its promise hooks on every promise the process makes, a tenth of a chat turn's CPU
| (docs/benchmarks/chat.md).
*/

const STAMP_ID = 'capabilities'
/** The stamp as a subquery, for reads that bring it along (unquoted names: every dialect). */
export const STAMP_SUBQUERY = `(select version from capability_stamps where id = '${STAMP_ID}')`

const caches = new Set<Map<string, Promise<unknown>>>()
let seen: number | undefined

/** One turn's view of the stamp: the checks of a turn pass it along. */
export interface CapabilityTurn {
  /** The stamp read for this turn, once it is (shared by checks that run side by side). */
  synced?: Promise<void>
}

const READ_STAMP = `select ${STAMP_SUBQUERY} as "version"`

async function readStamp(): Promise<number | string | undefined> {
  if (hasPreparedStatements()) {
    return (await runPrepared<{ version: string }>(READ_STAMP, []))[0]?.version
  }
  const row = await db.from('capability_stamps').where('id', STAMP_ID).select('version').first()
  return row?.version
}

function clearAll() {
  for (const cache of caches) cache.clear()
}

/**
 * The stamp as some read saw it: the caches are dropped when it differs from the last one
 * seen. A late answer of an older read only costs a reload: loads always read the tables.
 */
export function observeStamp(version: number | string | null | undefined) {
  const value = Number(version ?? 0)
  if (value !== seen) {
    clearAll()
    seen = value
  }
}

async function sync() {
  observeStamp(await readStamp())
}

/** A check's view of the stamp: read now, or once for the whole turn when given one. */
function synced(turn?: CapabilityTurn): Promise<void> {
  if (!turn) return sync()
  turn.synced ??= sync()
  return turn.synced
}

const SYNCED = Promise.resolve()

/**
 * Opens one turn (one chat request) whose capability checks share one read of the stamp.
 * `stamp`: the stamp already read with the turn's own data (the session read): the turn
 * reads none.
 */
export function capabilityTurn(stamp?: number | string | null): CapabilityTurn {
  if (stamp === undefined) return {}
  observeStamp(stamp)
  return { synced: SYNCED }
}

/**
 * A per-process cache whose entries last until the stamp moves. Concurrent misses of one
 * key share one load; a failed load is not kept.
 */
export function stampedCache<T>() {
  const entries = new Map<string, Promise<T>>()
  caches.add(entries as Map<string, Promise<unknown>>)
  return async function cached(
    key: string,
    load: () => Promise<T>,
    turn?: CapabilityTurn
  ): Promise<T> {
    await synced(turn)
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
