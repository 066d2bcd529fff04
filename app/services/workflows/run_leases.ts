import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { localStamp } from '#services/chat/chat_store'

/**
 * Leases on running workflow runs (docs/queue.md, "Leases"). The process that claims a run
 * writes its name in `claimed_by` and a `lease_expires_at` it renews every RENEW_MS while it
 * executes the run. A process that dies stops renewing: once the lease has expired, any
 * process working the queue puts the run back to queued (its concurrency slot is free at
 * that moment) and dispatches its job, so it goes on within seconds rather than after the
 * run's timeout.
 */

/** How long a claim lasts without renewal. */
export const LEASE_MS = 15_000
/** How often a process renews the leases of the runs it executes. */
export const RENEW_MS = 5_000
/** How often a process working the queue looks for expired leases. */
export const RECLAIM_EVERY_MS = 5_000

/** This process, as `claimed_by` names it. */
export const LEASE_OWNER = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`.slice(
  -128
)

/** Dates as Lucid writes them for the connection's dialect (SQLite would store a number). */
export function stamp(date: Date | DateTime) {
  const format = db.connection().dialect.dateTimeFormat
  // A run writes several dates per node: the dialects' usual formats are built by hand
  // (luxon's formatter showed in the profile of the workflows bench).
  if (format === 'yyyy-MM-dd HH:mm:ss' || format === "yyyy-MM-dd'T'HH:mm:ss.SSSZZ") {
    return localStamp(date instanceof Date ? date : date.toJSDate(), format)
  }
  const value = date instanceof Date ? DateTime.fromJSDate(date) : date
  return value.toFormat(format)
}

/** The columns of a claim taken now by this process. */
export function claimColumns(now: Date) {
  return {
    claimed_by: LEASE_OWNER,
    lease_expires_at: stamp(new Date(now.getTime() + LEASE_MS)),
  }
}

/** The columns of a run no process holds (finished, parked, back in the queue). */
export const RELEASED = { claimed_by: null, lease_expires_at: null }

function affected(result: unknown): number {
  if (Array.isArray(result)) return Number(result[0] ?? 0)
  return Number(result ?? 0)
}

// ---------------------------------------------------------------------------
// The concurrency slot
// ---------------------------------------------------------------------------

/**
 * Runs `work` holding the workflow's row lock (PostgreSQL, MySQL), so that claims of runs
 * of one workflow happen one at a time: a count of its running runs followed by a claim is
 * then exact, whatever the number of processes. Each statement in the transaction sees what
 * the previous lock holder committed (READ COMMITTED on PostgreSQL; on MySQL the locking
 * read comes first, so the transaction's snapshot is taken after it). SQLite has one writer
 * at a time and the claim is one statement: no transaction needed.
 */
export async function withWorkflowLock<T>(
  workflowId: string,
  work: (client: QueryClientContract) => Promise<T>
): Promise<T> {
  const dialect = db.connection().dialect.name
  if (dialect !== 'postgres' && dialect !== 'mysql') return work(db.connection())
  return db.transaction(async (trx) => {
    await trx.from('workflows').where('id', workflowId).forUpdate().select('id')
    return work(trx)
  })
}

/** The SQL condition "the workflow has fewer than `cap` running runs besides this one". */
export function belowCap(workflowId: string, runId: string, cap: number) {
  return {
    // The derived table lets MySQL read the table it updates.
    sql: '(select count(*) from (select id from workflow_runs where workflow_id = ? and status = ? and id <> ?) as active) < ?',
    bindings: [workflowId, 'running', runId, cap],
  }
}

// ---------------------------------------------------------------------------
// Renewal
// ---------------------------------------------------------------------------

const held = new Set<string>()
let renewTimer: NodeJS.Timeout | null = null
let renewing: Promise<void> | null = null

/** Renews the run's lease every RENEW_MS until dropLease. */
export function holdLease(runId: string) {
  held.add(runId)
  if (!renewTimer) {
    renewTimer = setInterval(() => {
      renewing ??= renewLeases().finally(() => (renewing = null))
    }, RENEW_MS)
    // Leases never keep a process alive: one that exits simply stops renewing them.
    renewTimer.unref()
  }
}

export function dropLease(runId: string) {
  held.delete(runId)
  if (held.size === 0 && renewTimer) {
    clearInterval(renewTimer)
    renewTimer = null
  }
}

/** The runs this process holds (tests, health). */
export function heldLeases() {
  return [...held]
}

async function renewLeases() {
  const ids = [...held]
  const until = stamp(new Date(Date.now() + LEASE_MS))
  try {
    // Chunks keep the statement under SQLite's bound-parameter limit.
    for (let index = 0; index < ids.length; index += 500) {
      await db
        .from('workflow_runs')
        .whereIn('id', ids.slice(index, index + 500))
        .where('claimed_by', LEASE_OWNER)
        .where('status', 'running')
        .update({ lease_expires_at: until })
    }
  } catch (error) {
    // The next turn tries again; a lease lasts three turns.
    logger.warn({ err: error }, 'workflow run leases not renewed')
  }
}

// ---------------------------------------------------------------------------
// Taking back expired leases
// ---------------------------------------------------------------------------

/**
 * Running runs whose lease has expired (their process died or lost the database) go back to
 * queued, their claim cleared; returns their ids, for the caller to dispatch their jobs.
 * Each run is taken back by one process only (the update re-checks the expiry).
 */
export async function reclaimExpired(now = new Date()): Promise<string[]> {
  const at = stamp(now)
  const rows = await db
    .from('workflow_runs')
    .where('status', 'running')
    .whereNotNull('lease_expires_at')
    .where('lease_expires_at', '<', at)
    .select('id')
  const reclaimed: string[] = []
  for (const row of rows) {
    const updated = await db
      .from('workflow_runs')
      .where('id', row.id)
      .where('status', 'running')
      .where('lease_expires_at', '<', at)
      .update({ status: 'queued', ...RELEASED, updated_at: at })
    if (affected(updated) > 0) reclaimed.push(row.id)
  }
  if (reclaimed.length > 0) {
    logger.warn({ runs: reclaimed }, 'workflow runs of a dead process taken back')
  }
  return reclaimed
}

/**
 * Where a run stands with its lease, for a job that stalled too often: 'held' while running
 * under a lease that has not run out (this process's or another's), 'requeued' when it was
 * queued or its lease has run out (it is put back to queued here), 'other' otherwise
 * (finished, waiting, or running from before leases).
 */
export async function leaseState(
  runId: string,
  now = new Date()
): Promise<'held' | 'requeued' | 'other'> {
  const run = await db
    .from('workflow_runs')
    .where('id', runId)
    .select('status', 'lease_expires_at')
    .first()
  if (!run) return 'other'
  if (run.status === 'queued') return 'requeued'
  if (run.status !== 'running' || run.lease_expires_at === null) return 'other'
  if (held.has(runId)) return 'held'
  const at = stamp(now)
  const updated = await db
    .from('workflow_runs')
    .where('id', runId)
    .where('status', 'running')
    .where('lease_expires_at', '<', at)
    .update({ status: 'queued', ...RELEASED, updated_at: at })
  return affected(updated) > 0 ? 'requeued' : 'held'
}
