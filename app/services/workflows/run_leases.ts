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
let dateTimeFormat: string | undefined

export function stamp(date: Date | DateTime) {
  // The primary connection's format: fixed for the process.
  const format = (dateTimeFormat ??= db.connection().dialect.dateTimeFormat)
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
// Concurrency slots
// ---------------------------------------------------------------------------

/**
 * A workflow's cap of running runs holds across processes through slots (migration 0105):
 * a claim names a slot below the cap, and a unique index over the running runs keeps two
 * of them from naming the same one. No claim waits for another to commit, as a lock on the
 * workflow's row made them do: two claims meet only when they pick the same slot, and then
 * the index turns one of them down at once.
 *
 * The book is what this process knows of the slots: those its runs hold and those being
 * claimed now, so that its own claims never pick the same slot; slots held elsewhere are
 * learnt when a claim meets one (the claim then reads which are taken).
 */
export class SlotBook {
  /** Per workflow: slot -> the run holding it (or being claimed with it) in this process. */
  private byWorkflow = new Map<string, Map<number, { runId: string; held: boolean }>>()
  private ofRun = new Map<string, { workflowId: string; slot: number }>()

  /**
   * A slot below the cap, booked for the run. Without `taken`, one this process neither
   * holds nor is claiming; with `taken` (the slots the database says running runs hold),
   * one outside those that no claim of this process is taking: the database is then the
   * truth on held slots (a run of this process may have been taken back elsewhere).
   */
  book(workflowId: string, runId: string, cap: number, taken?: Set<number>): number | null {
    this.release(runId)
    const mine = this.byWorkflow.get(workflowId) ?? new Map()
    const free: number[] = []
    for (let slot = 0; slot < cap; slot++) {
      const booked = mine.get(slot)
      if (taken ? taken.has(slot) || (booked && !booked.held) : booked) continue
      free.push(slot)
    }
    if (free.length === 0) return null
    // At random: processes that know nothing of each other's slots seldom pick the same.
    const slot = free[Math.floor(Math.random() * free.length)]
    const previous = mine.get(slot)
    if (previous) this.ofRun.delete(previous.runId)
    mine.set(slot, { runId, held: false })
    this.byWorkflow.set(workflowId, mine)
    this.ofRun.set(runId, { workflowId, slot })
    return slot
  }

  /** The run's claim went through: it holds its slot until release. */
  confirm(runId: string) {
    const booked = this.ofRun.get(runId)
    const entry = booked && this.byWorkflow.get(booked.workflowId)?.get(booked.slot)
    if (entry?.runId === runId) entry.held = true
  }

  release(runId: string) {
    const booked = this.ofRun.get(runId)
    if (!booked) return
    this.ofRun.delete(runId)
    const mine = this.byWorkflow.get(booked.workflowId)
    if (mine?.get(booked.slot)?.runId === runId) mine.delete(booked.slot)
    if (mine?.size === 0) this.byWorkflow.delete(booked.workflowId)
  }

  /** The slot booked for the run (tests). */
  slotOf(runId: string) {
    return this.ofRun.get(runId)?.slot ?? null
  }
}

/** This process's book; leases and slots go together (dropLease releases the slot). */
export const slotBook = new SlotBook()

/** A write turned down by a unique index (here: the slot another running run holds). */
export function isUniqueViolation(error: unknown) {
  if (!error || typeof error !== 'object') return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return (
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    errno === 1062 ||
    code === 'SQLITE_CONSTRAINT_UNIQUE'
  )
}

/** How often a claim picks another slot after meeting one held elsewhere. */
const SLOT_TRIES = 4

/**
 * Claims a slot of the workflow for the run: `write(slot)` is the claim itself (one
 * statement that sets the slot with the run's status), true when it took the run, false when
 * the run was not claimable. False too when every slot is taken (the run waits for one).
 */
export async function claimSlot(
  workflowId: string,
  runId: string,
  cap: number,
  write: (slot: number) => Promise<boolean>,
  options: { book?: SlotBook; client?: QueryClientContract } = {}
): Promise<boolean> {
  const book = options.book ?? slotBook
  let taken: Set<number> | undefined
  for (let attempt = 0; attempt < SLOT_TRIES; attempt++) {
    const slot = book.book(workflowId, runId, cap, taken)
    if (slot === null) {
      // Every slot is taken, as far as this process knows: the database says for sure.
      if (taken) return false
      taken = await takenSlots(workflowId, options.client)
      continue
    }
    try {
      if (await write(slot)) {
        book.confirm(runId)
        return true
      }
      book.release(runId)
      return false
    } catch (error) {
      book.release(runId)
      if (!isUniqueViolation(error)) throw error
      taken = await takenSlots(workflowId, options.client)
    }
  }
  return false
}

/** The slots the workflow's running runs hold, in any process. */
async function takenSlots(workflowId: string, client?: QueryClientContract) {
  const rows = await (client ?? db.connection())
    .from('workflow_runs')
    .where('workflow_id', workflowId)
    .where('status', 'running')
    .whereNotNull('slot')
    .select('slot')
  return new Set(rows.map((row: { slot: number }) => Number(row.slot)))
}

/**
 * The SQL condition "the workflow has fewer than `cap` running runs besides this one": the
 * slots are what holds the cap under concurrent claims; this count keeps it for runs
 * running without a slot (claimed before slots existed) and after the cap was lowered.
 */
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
  slotBook.release(runId)
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
