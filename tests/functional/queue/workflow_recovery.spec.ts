import { test } from '@japa/runner'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import db from '@adonisjs/lucid/services/db'
import { BullMQDriver } from '#queue/bullmq_driver'
import { closeQueue, useQueueDriver } from '#queue/queue'
import { createRun } from '#services/workflows/run_workflow'
import { dispatchRun } from '#services/workflows/jobs'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { startQueueWorker } from '#tests/queue_worker'

/**
 * A worker killed mid-run (docs/queue.md): real `node ace queue:work` processes on BullMQ,
 * the app's database shared with them, and a local listener standing for the service the
 * runs call. Workers in other processes need a database server: on SQLite (one process's
 * file) the test is skipped.
 */

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const RUNS = 36
const CAP = 5

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Deletes keys by pattern with SCAN: other suites share this Redis, so never FLUSHDB. */
async function deleteKeys(redis: Redis, pattern: string) {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) await redis.del(...keys)
  } while (cursor !== '0')
}

function startWorker(prefix: string) {
  return startQueueWorker(REDIS_URL, prefix)
}

interface Call {
  n: number
  key: string | undefined
  at: number
  answered: boolean
}

/** The service the runs call: answers after 1 to 2 s, and remembers every call. */
async function listener() {
  const calls: Call[] = []
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const n = Number(JSON.parse(body || '{}').n)
      const call: Call = {
        n,
        key: request.headers['idempotency-key'] as string | undefined,
        at: Date.now(),
        answered: false,
      }
      calls.push(call)
      setTimeout(
        () => {
          call.answered = true
          response.setHeader('content-type', 'application/json')
          response.end(JSON.stringify({ ok: true, n }))
        },
        1000 + (n % 3) * 500
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    calls,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** PostgreSQL or MySQL: a database server the worker processes share. */
const sharedDatabase = () => ['postgres', 'mysql'].includes(db.connection().dialect.name)

test.group('Queue | a workflow worker killed mid-run', (group) => {
  const prefix = `fc-recovery-${process.pid}-${Date.now().toString(36)}`
  const workers: ChildProcess[] = []
  let admin: Redis

  group.setup(async () => {
    admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 })
    return async () => {
      await deleteKeys(admin, `${prefix}*`)
      await admin.quit()
    }
  })

  group.teardown(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL')
    await closeQueue()
    useQueueDriver(null)
  })

  test('SIGKILL with runs in flight: every run succeeds on another worker within 60 s, once, keyed, within the cap', async ({
    assert,
    cleanup,
  }) => {
    const service = await listener()
    cleanup(() => service.close())
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'wait', type: 'workflow-wait', options: { amount: 1, unit: 'seconds' } },
        {
          id: 'post',
          type: 'workflow-http-request',
          options: { method: 'POST', url: service.url, body: '{ "n": {{$node.trigger.n}} }' },
        },
        { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'done' } },
      ],
      // A long timeout: recovery must come from the dead worker's lease, not from this.
      { settings: { concurrency: CAP, timeout: 600 }, variables: [{ id: 'v1', name: 'Done' }] }
    )

    const first = startWorker(prefix)
    workers.push(first.child)
    await first.ready()

    // This process plays the web process: it queues runs, it does not work them.
    useQueueDriver(new BullMQDriver({ url: REDIS_URL, prefix }))
    const runIds: string[] = []
    for (let n = 1; n <= RUNS; n++) {
      const runId = await createRun(workflow, 'manual', { n })
      await dispatchRun(runId)
      runIds.push(runId)
    }

    let maxRunning = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const row = await db
          .from('workflow_runs')
          .where('workflow_id', workflow.id)
          .where('status', 'running')
          .count('* as total')
          .first()
        maxRunning = Math.max(maxRunning, Number(row?.total ?? 0))
        await sleep(50)
      }
    })()

    // Killed while calls are in flight and most runs have not finished.
    const deadline = Date.now() + 60_000
    while (service.calls.filter((call) => !call.answered).length < 3) {
      if (Date.now() > deadline) throw new Error(`No calls in flight:\n${first.output}`)
      await sleep(20)
    }
    first.child.kill('SIGKILL')
    await once(first.child, 'exit')
    const cutOff = new Set(service.calls.filter((call) => !call.answered).map((call) => call.n))

    const second = startWorker(prefix)
    workers.push(second.child)
    await second.ready()
    const upAt = Date.now()

    const unfinished = () =>
      db
        .from('workflow_runs')
        .whereIn('id', runIds)
        .whereNotIn('status', ['success', 'error', 'cancelled'])
        .count('* as total')
        .first()
    while (Number((await unfinished())?.total) > 0) {
      if (Date.now() - upAt > 60_000) {
        const left = await db
          .from('workflow_runs')
          .whereIn('id', runIds)
          .whereNotIn('status', ['success'])
          .select('id', 'status', 'lease_expires_at')
        throw new Error(
          `Runs not done 60 s after the new worker started: ${JSON.stringify(left)}\n${second.output}`
        )
      }
      await sleep(200)
    }
    const recoveredInMs = Date.now() - upAt
    sampling = false
    await sampler
    second.child.kill('SIGTERM')
    await once(second.child, 'exit')

    const runs = await db
      .from('workflow_runs')
      .whereIn('id', runIds)
      .select('id', 'status', 'error')
    assert.deepEqual(
      runs.filter((run) => run.status !== 'success'),
      [],
      'every run succeeded'
    )
    assert.isBelow(recoveredInMs, 60_000)
    assert.isAtMost(maxRunning, CAP, 'the concurrency limit held')
    assert.isAtLeast(maxRunning, 1)

    // Every node finished once per run; the attempts the kill cut off are kept as such.
    const nodes = await db
      .from('workflow_run_nodes')
      .whereIn('run_id', runIds)
      .select('run_id', 'node_id', 'status')
    const finished = new Map<string, number>()
    for (const node of nodes) {
      if (!['success', 'error'].includes(node.status)) continue
      const key = `${node.run_id}/${node.node_id}`
      finished.set(key, (finished.get(key) ?? 0) + 1)
    }
    assert.equal(finished.size, RUNS * 4, 'four finished nodes per run')
    assert.deepEqual(
      [...finished].filter(([, count]) => count > 1),
      [],
      'no node recorded twice as finished'
    )
    const interrupted = nodes.filter((node) => node.status === 'interrupted')
    assert.isAtLeast(interrupted.length, cutOff.size, 'each cut-off call is in its run history')
    assert.isTrue(interrupted.every((node) => node.node_id === 'post'))
    assert.isEmpty(
      nodes.filter((node) => ['running', 'waiting'].includes(node.status)),
      'no record left open'
    )

    // The calls repeated after the kill carry the key of their first attempt.
    const byRun = new Map<number, Call[]>()
    for (const call of service.calls) byRun.set(call.n, [...(byRun.get(call.n) ?? []), call])
    assert.equal(byRun.size, RUNS, 'every run called the service')
    const repeated = [...byRun.values()].filter((calls) => calls.length > 1)
    assert.isAtLeast(repeated.length, cutOff.size, 'the calls cut off were made again')
    for (const calls of byRun.values()) {
      assert.isString(calls[0].key)
      assert.match(calls[0].key!, /^fc-[0-9a-f]{40}$/)
      assert.deepEqual(
        calls.map((call) => call.key),
        calls.map(() => calls[0].key),
        `the calls of run n=${calls[0].n} share one key`
      )
    }
    assert.equal(new Set(service.calls.map((call) => call.key)).size, RUNS, 'one key per run')
  })
    .skip(
      !sharedDatabase(),
      'Workers in other processes share the database: run it on PostgreSQL or MySQL (DB_CONNECTION=pg)'
    )
    .timeout(180_000)
})
