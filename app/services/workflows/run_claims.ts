import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { RawQueryBindings } from '@adonisjs/lucid/types/querybuilder'
import WorkflowRun from '#models/workflow_run'
import { jsonText } from '#models/json_text'
import { newId } from '#services/ids'
import { queueDriver } from '#queue/queue'
import { InProcessDriver } from '#queue/in_process_driver'
import type { RunTrigger } from '#shared/workflow/types'
import { isTransientDatabaseError } from './transient_errors.js'
import {
  belowCap,
  claimColumns,
  claimSlot,
  holdLease,
  LEASE_MS,
  stamp,
  type SlotBook,
} from './run_leases.js'
import { concurrencyOf, RUN_JOB_NAME, type RunnableWorkflow } from './runnable_workflow.js'

/**
 * Claims: how a process takes a run (queued, waiting, or inserted already running) within
 * its workflow's concurrency cap, so that two processes never both hold it. Slots and
 * leases themselves are in run_leases.ts.
 */

/** Run jobs the in-process queue would start at once (PostgreSQL only, see insertClaimed). */
export function freeSlots() {
  const driver = queueDriver()
  if (!(driver instanceof InProcessDriver) || db.connection().dialect.name !== 'postgres') return 0
  return driver.freeSlots(RUN_JOB_NAME)
}

/**
 * A run inserted already claimed (running) with a free slot of its workflow, in one
 * statement that also checks the count of its running runs as the claim of a queued run
 * does; null at the cap (insert it queued). Only when this process's queue starts the run's
 * job at once: a claimed run waiting in memory would count against the cap, and a restart
 * would leave it to the lease check.
 * PostgreSQL: INSERT ... SELECT ... WHERE without FROM, and its affected-row count.
 */
export async function insertClaimed(
  workflow: RunnableWorkflow,
  trigger: RunTrigger,
  input: unknown
) {
  const now = DateTime.now()
  const id = newId()
  const columns: Record<string, unknown> = {
    id,
    workflow_id: workflow.id,
    status: 'running',
    trigger,
    input: jsonText.prepare(input ?? null),
    started_at: stamp(now),
    created_at: stamp(now),
    updated_at: stamp(now),
    ...claimColumns(now.toJSDate()),
  }
  const cap = concurrencyOf(workflow.settings)
  const inserted = await claimSlot(workflow.id, id, cap, async (slot) => {
    columns.slot = slot
    const names = Object.keys(columns)
    const result = await db.rawQuery(
      `insert into workflow_runs (${names.join(', ')}) select ${names.map(() => '?').join(', ')} ` +
        'where (select count(*) from workflow_runs where workflow_id = ? and status = ?) < ?',
      [...Object.values(columns), workflow.id, 'running', cap] as RawQueryBindings
    )
    return Number(result?.rowCount ?? 0) === 1
  })
  if (!inserted) return null
  holdLease(id)
  // As the driver returns rows: timestamps as dates.
  const at = now.toJSDate()
  return WorkflowRun.$createFromAdapterResult({
    ...columns,
    started_at: at,
    created_at: at,
    updated_at: at,
    lease_expires_at: new Date(at.getTime() + LEASE_MS),
  })!
}

/**
 * Takes a queued run, or a running one whose lease has expired (its process died): the
 * update succeeds only while that holds, with a slot of the workflow no other running run
 * holds (run_leases.ts, "Concurrency slots"), so two processes never both take it nor
 * together exceed the cap. The claim names this process and starts its lease.
 * `options`: another connection and book than this process's (tests: a second process).
 */
export async function claimQueued(
  run: WorkflowRun,
  cap: number,
  now: Date,
  options: ClaimOptions = {}
): Promise<boolean> {
  const client = options.client ?? db.connection()
  const changes: Record<string, unknown> = {
    status: 'running',
    updated_at: stamp(now),
    ...claimColumns(now),
  }
  if (!run.startedAt) changes.started_at = stamp(now)
  const claimed = await retriedOnDeadlock(() =>
    claimSlot(
      run.workflowId,
      run.id,
      cap,
      async (slot) =>
        affected(
          await withinCount(client, run, cap, (query) =>
            query
              .where('id', run.id)
              .where((status) =>
                status
                  .where('status', 'queued')
                  .orWhere((expired) =>
                    expired
                      .where('status', 'running')
                      .whereNotNull('lease_expires_at')
                      .where('lease_expires_at', '<', stamp(now))
                  )
              )
              .update({ ...changes, slot })
          )
        ) > 0,
      options
    )
  )
  if (claimed) holdLease(run.id)
  return claimed
}

/**
 * Two claims at the same moment can deadlock on MySQL/MariaDB (each holds a row the other's
 * update wants); the database rolls one back and expects it to be tried again, which then
 * finds the run taken or a slot free. A few quick tries, then the error goes to the caller.
 */
async function retriedOnDeadlock<T>(attempt: () => Promise<T>, tries = 4): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (error) {
      if (n >= tries || !isTransientDatabaseError(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, 10 * n + Math.random() * 20))
    }
  }
}

/**
 * Takes a waiting run back to running with a slot of its workflow (resumeRun). No lease is
 * held yet: the caller holds it once the claim succeeded.
 */
export async function claimWaiting(run: WorkflowRun, cap: number, now: Date) {
  return claimSlot(
    run.workflowId,
    run.id,
    cap,
    async (slot) =>
      affected(
        await withinCount(db.connection(), run, cap, (query) =>
          query
            .where('id', run.id)
            .where('status', 'waiting')
            .update({ status: 'running', updated_at: stamp(now), ...claimColumns(now), slot })
        )
      ) > 0
  )
}

export interface ClaimOptions {
  client?: QueryClientContract
  book?: SlotBook
}

/**
 * The claim's update, made only while the workflow has fewer than `cap` other running runs
 * (belowCap). PostgreSQL and SQLite count in the update itself; MySQL would take shared
 * locks on the rows it counts there (a subquery of an update is a locking read), so it
 * counts first with a plain read: the slot, not the count, holds the cap under concurrency.
 */
async function withinCount(
  client: QueryClientContract,
  run: WorkflowRun,
  cap: number,
  update: (query: ReturnType<QueryClientContract['from']>) => Promise<unknown>
) {
  if (client.dialect.name === 'mysql') {
    const row = await client
      .from('workflow_runs')
      .where('workflow_id', run.workflowId)
      .where('status', 'running')
      .whereNot('id', run.id)
      .count('* as total')
      .first()
    if (Number(row?.total ?? 0) >= cap) return 0
    return update(client.from('workflow_runs'))
  }
  const limit = belowCap(run.workflowId, run.id, cap)
  return update(client.from('workflow_runs').whereRaw(limit.sql, limit.bindings))
}

/** Whether a running run's lease has run out (null: claimed before leases existed). */
export function leaseExpired(run: WorkflowRun, now: Date) {
  return run.leaseExpiresAt !== null && run.leaseExpiresAt.toMillis() < now.getTime()
}

export function affected(result: unknown): number {
  if (Array.isArray(result)) return Number(result[0] ?? 0)
  return Number(result ?? 0)
}
