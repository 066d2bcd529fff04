import { test } from '@japa/runner'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { BullMQDriver } from '#queue/bullmq_driver'
import { closeQueue, useQueueDriver } from '#queue/queue'
import { createRun } from '#services/workflows/run_workflow'
import { dispatchRun } from '#services/workflows/jobs'
import { startWorkflowRuntime } from '#services/workflows/runtime'
import { stamp } from '#services/workflows/run_leases'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { startQueueWorker } from '#tests/queue_worker'
import { startTelegramStandIn } from '../../../plugins/telegram/stand_in.js'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateCredential } from '#actions/credentials/create_credential'

/**
 * Queues that survive an empty Redis (docs/queue.md, "An empty Redis"; issue 27): a Redis of
 * the test's own (redis-server on a free port) is restarted without its data, or stopped, or
 * frozen, under a real `node ace queue:work` worker and this process playing the web process.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0
/** Workers in other processes need a database server: not SQLite's one-process file. */
const sharedDatabase = () => ['postgres', 'mysql'].includes(db.connection().dialect.name)

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A Redis without persistence: killed and started again, it comes back empty. */
async function privateRedis() {
  const port = await freePort()
  const dir = await mkdtemp(join(app.makePath('tmp'), 'redis-empty-'))
  let server: ChildProcess | null = null
  const start = async () => {
    server = spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
        ...['--save', '', '--appendonly', 'no'],
      ],
      { stdio: 'ignore' }
    )
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 })
    probe.on('error', () => {})
    const started = Date.now()
    for (;;) {
      try {
        await probe.connect()
        break
      } catch {
        probe.disconnect()
        if (Date.now() - started > 10_000) throw new Error('redis-server did not start')
        await sleep(50)
      }
    }
    probe.disconnect()
  }
  const stop = async () => {
    const current = server
    server = null
    if (!current || current.exitCode !== null) return
    current.kill('SIGKILL')
    await once(current, 'exit')
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    /** SIGSTOP: the connection stays open and commands go unanswered. */
    freeze: () => server?.kill('SIGSTOP'),
    thaw: () => server?.kill('SIGCONT'),
    async dispose() {
      if (server) server.kill('SIGCONT')
      await stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

function startWorker(redisUrl: string, prefix: string) {
  return startQueueWorker(redisUrl, prefix, 90_000)
}

async function statusesOf(runIds: string[]) {
  const rows = await db.from('workflow_runs').whereIn('id', runIds).select('id', 'status')
  return rows.map((row: { status: string }) => row.status)
}

test.group('Queue | an empty Redis', (group) => {
  const children: ChildProcess[] = []
  const disposals: (() => Promise<void>)[] = []

  group.each.teardown(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    children.length = 0
    await closeQueue()
    useQueueDriver(null)
    for (const dispose of disposals.splice(0)) await dispose()
  })

  test('Redis restarted empty with runs in the database: they all run within 30 s, no web process restarted', async ({
    assert,
  }) => {
    const redis = await privateRedis()
    disposals.push(() => redis.dispose())
    const prefix = `fc-empty-${process.pid}-${Date.now().toString(36)}`
    // One run at a time, 1 s each: most of them wait in the queue when Redis is emptied.
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'wait', type: 'workflow-wait', options: { amount: 1, unit: 'seconds' } },
        { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
      ],
      { settings: { concurrency: 1, timeout: 600 }, variables: [{ id: 'v1', name: 'Done' }] }
    )

    const worker = startWorker(redis.url, prefix)
    children.push(worker.child)
    await worker.ready()

    // This process plays a web process that booted before the outage: it registered the
    // periodic jobs then, and it is not restarted after.
    useQueueDriver(new BullMQDriver({ url: redis.url, prefix, closeTimeoutMs: 1000 }))
    await startWorkflowRuntime()
    const runIds: string[] = []
    for (let n = 0; n < 6; n++) {
      const runId = await createRun(workflow, 'manual', { n })
      await dispatchRun(runId)
      runIds.push(runId)
    }
    const started = Date.now()
    while (!(await statusesOf(runIds)).includes('success')) {
      if (Date.now() - started > 60_000) throw new Error(`No run finished:\n${worker.output}`)
      await sleep(100)
    }

    await redis.stop()
    await redis.start()
    const emptiedAt = Date.now()
    const left = (await statusesOf(runIds)).filter((status) => status !== 'success').length
    assert.isAtLeast(left, 2, 'runs were still waiting for the queue when Redis lost them')

    // Re-queued within 30 s; at one run a second, the last one ends a few seconds later.
    while ((await statusesOf(runIds)).some((status) => status !== 'success')) {
      if (Date.now() - emptiedAt > 30_000 + left * 2_000) {
        const rows = await db.from('workflow_runs').whereIn('id', runIds).select('id', 'status')
        throw new Error(
          `Runs not done after Redis restarted empty: ${JSON.stringify(rows)}\n${worker.output}`
        )
      }
      await sleep(200)
    }
    assert.deepEqual(await statusesOf(runIds), Array(6).fill('success'))
  })
    .skip(!hasRedisServer, 'redis-server is not installed')
    .skip(!sharedDatabase(), 'workers in other processes need PostgreSQL or MySQL')
    .timeout(180_000)

  test('Redis keys deleted under live connections: the worker notices and the runs go on', async ({
    assert,
  }) => {
    const redis = await privateRedis()
    disposals.push(() => redis.dispose())
    const prefix = `fc-emptied-${process.pid}-${Date.now().toString(36)}`
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
      ],
      { settings: { concurrency: 5, timeout: 600 }, variables: [{ id: 'v1', name: 'Done' }] }
    )
    const worker = startWorker(redis.url, prefix)
    children.push(worker.child)
    await worker.ready()

    // Runs the database holds as queued while Redis has lost everything (its connections
    // stayed up): no reconnection tells anyone.
    const admin = new Redis(redis.url)
    const runIds: string[] = []
    for (let n = 0; n < 3; n++) runIds.push(await createRun(workflow, 'manual', { n }))
    await admin.flushall()
    await admin.quit()
    const emptiedAt = Date.now()

    while ((await statusesOf(runIds)).some((status) => status !== 'success')) {
      if (Date.now() - emptiedAt > 30_000) {
        throw new Error(`Runs not done 30 s after Redis was emptied:\n${worker.output}`)
      }
      await sleep(200)
    }
    assert.deepEqual(await statusesOf(runIds), Array(3).fill('success'))
  })
    .skip(!hasRedisServer, 'redis-server is not installed')
    .skip(!sharedDatabase(), 'workers in other processes need PostgreSQL or MySQL')
    .timeout(180_000)

  test('Redis unreachable: a webhook call is answered 503 with Retry-After (within 2 s once the connection dropped, 1.5 s of running time when frozen), and no run is left', async ({
    assert,
  }) => {
    const redis = await privateRedis()
    disposals.push(() => redis.dispose())
    const prefix = `fc-outage-${process.pid}-${Date.now().toString(36)}`
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'webhook-trigger', options: { responseMode: 'lastNode' } },
      { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
    ])
    const driver = new BullMQDriver({ url: redis.url, prefix, closeTimeoutMs: 1000 })
    useQueueDriver(driver)
    await driver.ready()
    const base = `http://${env.get('HOST')}:${env.get('PORT')}`

    const call = async () => {
      const started = Date.now()
      const response = await fetch(`${base}/api/v1/workflows/${workflow.id}/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"n":1}',
        signal: AbortSignal.timeout(15_000),
      })
      return { response, ms: Date.now() - started }
    }

    // Frozen: the connection looks alive and commands go unanswered. The dispatch is given
    // WEBHOOK_QUEUE_BUDGET_MS (1.5 s of the process's running time), then the caller is told
    // to retry. 2 s on a quiet machine; the margin is for a loaded one, where the budget
    // stretches with the process's share of the CPU.
    redis.freeze()
    const frozen = await call()
    assert.equal(frozen.response.status, 503)
    assert.isBelow(frozen.ms, 6_000, `answered in ${frozen.ms} ms`)
    assert.match(frozen.response.headers.get('retry-after') ?? '', /^\d+$/)

    // Stopped: the app knows Redis is away and turns the caller away at once.
    redis.thaw()
    await redis.stop()
    const deadline = Date.now() + 10_000
    while (driver.available && Date.now() < deadline) await sleep(50)
    const stopped = await call()
    assert.equal(stopped.response.status, 503)
    assert.isBelow(stopped.ms, 2000)
    assert.match(stopped.response.headers.get('retry-after') ?? '', /^\d+$/)

    // Neither call left a run behind that would run after the caller was told to retry.
    const runs = await db.from('workflow_runs').where('workflow_id', workflow.id).select('id')
    assert.lengthOf(runs, 0)
  })
    .skip(!hasRedisServer, 'redis-server is not installed')
    .timeout(60_000)

  test('Redis unreachable: an event delivery is accepted into the database within 2 s, and runs once Redis is back', async ({
    assert,
    client,
    cleanup,
  }) => {
    const redis = await privateRedis()
    disposals.push(() => redis.dispose())
    const prefix = `fc-events-${process.pid}-${Date.now().toString(36)}`
    const driver = new BullMQDriver({ url: redis.url, prefix, closeTimeoutMs: 1000 })
    useQueueDriver(driver)
    await driver.ready()

    const telegram = await startTelegramStandIn({ token: '123456:outage-token' })
    cleanup(() => telegram.close())
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `outage-${Date.now()}`)).value
    const credential = await new CreateCredential().handle(user, workspace, {
      type: 'telegram-trigger',
      name: 'Outage bot',
      data: { accessToken: '123456:outage-token', baseUrl: telegram.baseUrl },
    })
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({
        workspaceId: workspace.id,
        workflow: {
          name: 'Orders',
          blocks: [
            {
              id: 'trigger',
              type: 'telegram-trigger',
              graphCoordinates: { x: 0, y: 0 },
              options: { credentialsId: credential.id, message: true },
            },
            {
              id: 'echo',
              type: 'workflow-script',
              graphCoordinates: { x: 300, y: 0 },
              options: { code: 'return { text: input.message.text }' },
            },
          ],
          edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'echo' } }],
          variables: [],
          settings: {},
        },
      })
    created.assertStatus(201)
    const id = created.body().workflow.id as string
    ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)).assertStatus(200)
    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(token)).assertStatus(200)

    const deliver = async (updateId: number) => {
      const started = Date.now()
      const answer = await telegram.deliver({
        update_id: updateId,
        message: { message_id: updateId, chat: { id: 1, type: 'private' }, text: `u${updateId}` },
      })
      return { ...answer, ms: Date.now() - started }
    }

    // Frozen: the dispatch is given its budget (1.5 s of running time), then the event is
    // acknowledged as taken; the run waits in the database. The margin is for a loaded machine.
    redis.freeze()
    const frozen = await deliver(501)
    assert.equal(frozen.status, 200)
    assert.isString(frozen.body.runId)
    assert.isBelow(frozen.ms, 6_000, `answered in ${frozen.ms} ms`)

    // Stopped: acknowledged at once, without waiting on the queue.
    redis.thaw()
    await redis.stop()
    const deadline = Date.now() + 10_000
    while (driver.available && Date.now() < deadline) await sleep(50)
    const stopped = await deliver(502)
    assert.equal(stopped.status, 200)
    assert.isString(stopped.body.runId)
    assert.isBelow(stopped.ms, 2_000, `answered in ${stopped.ms} ms`)
    const runIds = [frozen.body.runId as string, stopped.body.runId as string]
    assert.deepEqual(await statusesOf([stopped.body.runId]), ['queued'])
    // Telegram delivers again until it hears a 2xx; the one it heard holds: no second run.
    const again = await deliver(502)
    assert.deepEqual(again.body, { ok: true, runId: stopped.body.runId, duplicate: true })

    if (!sharedDatabase()) return
    // Redis back, empty: a worker (its registrations sweep on connecting) runs both events.
    await redis.start()
    const worker = startWorker(redis.url, prefix)
    children.push(worker.child)
    await worker.ready()
    const back = Date.now()
    while ((await statusesOf(runIds)).some((status) => status !== 'success')) {
      if (Date.now() - back > 60_000) {
        const rows = await db.from('workflow_runs').whereIn('id', runIds).select('id', 'status')
        throw new Error(
          `Events not run after Redis came back: ${JSON.stringify(rows)}\n${worker.output}`
        )
      }
      await sleep(200)
    }
    const outputs = await db.from('workflow_runs').whereIn('id', runIds).select('output')
    assert.sameDeepMembers(
      outputs.map((row: { output: unknown }) =>
        typeof row.output === 'string' ? JSON.parse(row.output) : row.output
      ),
      [{ text: 'u501' }, { text: 'u502' }]
    )
  })
    .skip(!hasRedisServer, 'redis-server is not installed')
    .timeout(120_000)

  test('/health reports runs waiting without a job', async ({ client, assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
    ])
    // Queued a minute ago and never dispatched: its job is nowhere.
    const runId = await createRun(workflow, 'manual', {})
    const aMinuteAgo = stamp(new Date(Date.now() - 60_000))
    await db.from('workflow_runs').where('id', runId).update({ updated_at: aMinuteAgo })
    try {
      const response = await client.get('/health')
      response.assertStatus(200)
      assert.equal(response.body().status, 'degraded')
      assert.equal(response.body().checks.runs.status, 'error')
      assert.isAtLeast(response.body().checks.runs.queuedWithoutJob, 1)
    } finally {
      await db.from('workflow_runs').where('id', runId).delete()
    }
  })
})
