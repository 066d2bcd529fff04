import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import WorkflowRun from '#models/workflow_run'
import { jsonText } from '#models/json_text'
import { newId } from '#services/ids'
import { queueDriver } from '#queue/queue'
import { InProcessDriver } from '#queue/in_process_driver'
import type { RunTrigger } from '#shared/workflow/types'
import { hasPreparedStatements, isPostgres, runPrepared } from '#services/prepared_statements'
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
  if (!(driver instanceof InProcessDriver) || !isPostgres()) return 0
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
  const now = new Date()
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
    ...claimColumns(now),
  }
  const cap = concurrencyOf(workflow.settings)
  const inserted = await claimSlot(workflow.id, id, cap, async (slot) => {
    columns.slot = slot
    const names = Object.keys(columns)
    // The same text for every call (the columns are always these): a prepared statement.
    const rows = await runPrepared(
      `insert into workflow_runs (${names.join(', ')}) select ${names.map(() => '?').join(', ')} ` +
        'where (select count(*) from workflow_runs where workflow_id = ? and status = ?) < ? ' +
        'returning id',
      [...Object.values(columns), workflow.id, 'running', cap]
    )
    return rows.length === 1
  })
  if (!inserted) return null
  holdLease(id)
  // As the driver returns rows: timestamps as dates.
  return WorkflowRun.$createFromAdapterResult({
    ...columns,
    started_at: now,
    created_at: now,
    updated_at: now,
    lease_expires_at: new Date(now.getTime() + LEASE_MS),
  })!
}

/**
 * A queued run's record (createRun), written as a prepared statement where there are
 * (every webhook call on BullMQ writes one), else through the model.
 */
export async function insertQueued(workflowId: string, trigger: RunTrigger, input: unknown) {
  if (!hasPreparedStatements()) {
    return WorkflowRun.create({ workflowId, status: 'queued', trigger, input: input ?? null })
  }
  const now = new Date()
  const columns = {
    id: newId(),
    workflow_id: workflowId,
    status: 'queued',
    trigger,
    input: jsonText.prepare(input ?? null),
    created_at: stamp(now),
    updated_at: stamp(now),
  }
  await runPrepared(INSERT_QUEUED, Object.values(columns))
  // As the driver returns rows: timestamps as dates.
  return WorkflowRun.$createFromAdapterResult({ ...columns, created_at: now, updated_at: now })!
}

const INSERT_QUEUED =
  'insert into "workflow_runs" ("id", "workflow_id", "status", "trigger", "input", "created_at", ' +
  '"updated_at") values (?, ?, ?, ?, ?, ?, ?)'

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
  const prepared = !options.client && hasPreparedStatements()
  const claimed = await retriedOnDeadlock(() =>
    claimSlot(
      run.workflowId,
      run.id,
      cap,
      async (slot) =>
        prepared
          ? (await runPrepared(...claimQueuedStatement(run, cap, now, { ...changes, slot })))
              .length > 0
          : affected(
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
 * claimQueued's update as a prepared statement (PostgreSQL, SQLite): the same condition as
 * its query builder writes, with the claimed row's id returned to count it.
 */
function claimQueuedStatement(
  run: WorkflowRun,
  cap: number,
  now: Date,
  changes: Record<string, unknown>
): [string, unknown[]] {
  const names = Object.keys(changes)
  const limit = belowCap(run.workflowId, run.id, cap)
  const sql =
    `update "workflow_runs" set ${names.map((name) => `"${name}" = ?`).join(', ')} ` +
    `where ${limit.sql} and "id" = ? and ("status" = ? or ("status" = ? and ` +
    '"lease_expires_at" is not null and "lease_expires_at" < ?)) returning "id"'
  return [
    sql,
    [
      ...names.map((name) => changes[name]),
      ...limit.bindings,
      run.id,
      'queued',
      'running',
      stamp(now),
    ],
  ]
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
