import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WorkflowRun from '#models/workflow_run'
import { createRun } from '#services/workflows/run_workflow'
import { isTransientDatabaseError, runJob, TRANSIENT_RETRY_MS } from '#services/workflows/jobs'
import { leaseState, stamp } from '#services/workflows/run_leases'
import { useQueueDriver } from '#queue/queue'
import { RetryLater, type QueueDriver } from '#queue/types'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * What a run job does when it fails for reasons that say nothing about the run
 * (docs/queue.md, "Transient errors and stalled jobs").
 */

const stalled = new Error('job stalled more than allowable limit')

async function aRun() {
  const workflow = await publishedWorkflow([{ id: 'trigger', type: 'manual-trigger' }])
  return createRun(workflow, 'manual', {})
}

function setRun(runId: string, values: Record<string, unknown>) {
  return db.from('workflow_runs').where('id', runId).update(values)
}

/** A driver that records dispatches, so that onFailed's re-dispatch can be seen. */
function recordingDriver() {
  const dispatched: { name: string; payload: unknown; jobId?: string }[] = []
  const driver = {
    dispatch: async (name: string, payload: unknown, options: { jobId?: string } = {}) => {
      dispatched.push({ name, payload, jobId: options.jobId })
      return options.jobId ?? 'x'
    },
  } as unknown as QueueDriver
  return { driver, dispatched }
}

test.group('Queue | run job failures', (group) => {
  group.each.teardown(() => useQueueDriver(null))

  test('deadlocks, lock timeouts, busy files and pool timeouts are transient', ({ assert }) => {
    const mysqlDeadlock = Object.assign(new Error('Deadlock found'), {
      code: 'ER_LOCK_DEADLOCK',
      errno: 1213,
    })
    const pgDeadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' })
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
    const pool = Object.assign(new Error('Timeout acquiring a connection'), {
      name: 'KnexTimeoutError',
    })
    for (const error of [mysqlDeadlock, pgDeadlock, busy, pool]) {
      assert.isTrue(isTransientDatabaseError(error), String(error))
    }
    const duplicate = Object.assign(new Error('dup'), { code: '23505' })
    for (const error of [duplicate, new Error('boom'), null, 'text']) {
      assert.isFalse(isTransientDatabaseError(error), String(error))
    }
  })

  test('a transient error in the job sends it back to the delayed set, the run untouched', async ({
    assert,
  }) => {
    const runId = await aRun()
    const deadlock = Object.assign(new Error('Deadlock found'), { code: 'ER_LOCK_DEADLOCK' })
    // The run's row is read first: a failing read stands for the deadlock.
    const fromRow = WorkflowRun.$createFromAdapterResult
    WorkflowRun.$createFromAdapterResult = (() => {
      throw deadlock
    }) as typeof WorkflowRun.$createFromAdapterResult
    let thrown: unknown
    try {
      await runJob.handler(
        { runId },
        { jobId: `run:${runId}`, attempt: 1, signal: new AbortController().signal }
      )
    } catch (error) {
      thrown = error
    } finally {
      WorkflowRun.$createFromAdapterResult = fromRow
    }
    assert.instanceOf(thrown, RetryLater)
    assert.equal((thrown as RetryLater).delayMs, TRANSIENT_RETRY_MS)
    assert.equal((await WorkflowRun.findOrFail(runId)).status, 'queued')
  })

  test('a stalled job leaves a run under a live lease to its holder', async ({ assert }) => {
    const runId = await aRun()
    await setRun(runId, {
      status: 'running',
      claimed_by: 'another-process',
      lease_expires_at: stamp(new Date(Date.now() + 10_000)),
    })
    const { driver, dispatched } = recordingDriver()
    useQueueDriver(driver)
    await runJob.onFailed!({ runId }, stalled, {
      jobId: `run:${runId}`,
      attempt: 1,
      signal: new AbortController().signal,
    })
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'running')
    assert.equal(run.claimedBy, 'another-process')
    assert.isEmpty(dispatched)
  })

  test('a stalled job queues again a run whose lease has run out', async ({ assert }) => {
    const runId = await aRun()
    await setRun(runId, {
      status: 'running',
      claimed_by: 'a-dead-process',
      lease_expires_at: stamp(new Date(Date.now() - 1000)),
    })
    const { driver, dispatched } = recordingDriver()
    useQueueDriver(driver)
    await runJob.onFailed!({ runId }, stalled, {
      jobId: `run:${runId}`,
      attempt: 1,
      signal: new AbortController().signal,
    })
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'queued')
    assert.isNull(run.claimedBy)
    assert.deepEqual(
      dispatched.map((job) => job.jobId),
      [`run:${runId}`]
    )
    assert.equal(await leaseState(runId), 'requeued')
  })

  test('any other failure ends the run as failed, with the message', async ({ assert }) => {
    const runId = await aRun()
    await runJob.onFailed!({ runId }, new Error('the node crashed the job'), {
      jobId: `run:${runId}`,
      attempt: 1,
      signal: new AbortController().signal,
    })
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'error')
    assert.include(run.error ?? '', 'the node crashed the job')
  })
})
