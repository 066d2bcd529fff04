import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import app from '@adonisjs/core/services/app'
import { FRAGILE_JOB, logKey, recordingJobs, SLOW_JOB } from './recording_jobs.js'
import {
  REDIS_URL,
  newPrefix,
  sleep,
  waitFor,
  job,
  clientIdsOf,
  freePort,
  outputOf,
  hasRedisServer,
  bullmqRoom,
} from '#tests/functional/queue/bullmq_fixtures'

test.group('Queue | BullMQ driver: closing, crashes and reconnections', (group) => {
  const room = bullmqRoom(group)
  const { driverFor } = room

  test('close does not wait for an unreachable Redis', async ({ assert }) => {
    const warnings: string[] = []
    const driver = driverFor(newPrefix(), {
      url: `redis://127.0.0.1:${await freePort()}`,
      closeTimeoutMs: 10_000,
      logger: { warn: (_bindings, message) => warnings.push(message), error() {} },
    })
    await driver.work([job('never', async () => {})])
    await waitFor(() => warnings.length > 0)
    assert.deepEqual(warnings, ['Queue lost its Redis connection; reconnecting'])

    const started = Date.now()
    await driver.close()
    assert.isBelow(Date.now() - started, 3000)
  })

  test('a worker killed mid-job: the job runs again elsewhere and completes once, or fails past maxStalledCount', async ({
    assert,
  }) => {
    const prefix = newPrefix()
    const child = spawn(
      process.execPath,
      [
        '--no-node-snapshot',
        '--import=ts-node-maintained/register/esm',
        'tests/functional/queue/worker_fixture.ts',
      ],
      {
        cwd: app.makePath(),
        env: {
          ...process.env,
          FIXTURE_REDIS_URL: REDIS_URL,
          FIXTURE_PREFIX: prefix,
          FIXTURE_LOCK_MS: '1500',
          FIXTURE_STALLED_MS: '300',
          FIXTURE_HOLD_MS: '60000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }
    )
    room.children.push(child)
    const output = outputOf(child)
    await output.waitFor(/ready/, 15_000)

    const producer = driverFor(prefix)
    const slowId = await producer.dispatch(SLOW_JOB, {})
    const fragileId = await producer.dispatch(FRAGILE_JOB, {})
    const entries = () => room.admin.lrange(logKey(prefix), 0, -1)
    await waitFor(
      async () => (await entries()).filter((e) => e.startsWith('start:child')).length === 2,
      10_000
    )
    child.kill('SIGKILL')
    await once(child, 'exit')

    // The workers still alive find the dead one's jobs once its lock has expired.
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null })
    try {
      const [slow, fragile] = recordingJobs(redis, prefix, 'parent', 200)
      const stall = { stalledIntervalMs: 300, lockDurationMs: 1500 }
      await driverFor(prefix, { ...stall, maxStalledCount: 1 }).work([slow])
      await driverFor(prefix, { ...stall, maxStalledCount: 0 }).work([fragile])
      await waitFor(async () => {
        const log = await entries()
        return log.includes(`done:parent:${slowId}`) && log.some((e) => e.startsWith('failed:'))
      }, 10_000)
      await sleep(500)
    } finally {
      await redis.quit()
    }

    const log = await entries()
    const about = (id: string) => log.filter((e) => e.endsWith(`:${id}`) || e.includes(`:${id}:`))
    // Retried: started twice, finished once, by the live worker.
    assert.deepEqual(about(slowId), [
      `start:child:${slowId}`,
      `start:parent:${slowId}`,
      `done:parent:${slowId}`,
    ])
    // Past maxStalledCount: failed (onFailed once), not run again.
    assert.deepEqual(about(fragileId), [
      `start:child:${fragileId}`,
      `failed:parent:${fragileId}:job stalled more than allowable limit`,
    ])
  })

  test('dropped Redis connections: workers reconnect and every pending job finishes once', async ({
    assert,
  }) => {
    const prefix = newPrefix()
    const warnings: string[] = []
    const driver = driverFor(prefix, {
      logger: { warn: (_bindings, message) => warnings.push(message), error() {} },
    })
    const done: number[] = []
    await driver.work([
      job(
        'steady',
        async ({ n }) => {
          await sleep(100)
          done.push(n)
        },
        { concurrency: 2 }
      ),
    ])
    await driver.ready()
    for (let n = 0; n < 10; n++) {
      await driver.dispatch('steady', { n }, { delayMs: n < 6 ? 0 : 500 })
    }
    await waitFor(() => done.length >= 1)

    const ids = await clientIdsOf(room.admin, prefix)
    // The driver's own connection and the worker's blocking one.
    assert.isAtLeast(ids.length, 2)
    for (const id of ids) await room.admin.call('CLIENT', 'KILL', 'ID', id)

    await waitFor(() => done.length === 10, 15_000)
    await sleep(300)
    assert.sameMembers(
      done,
      Array.from({ length: 10 }, (_, n) => n)
    )
    assert.include(warnings, 'Queue lost its Redis connection; reconnecting')
    assert.include(warnings, 'Queue reconnected to Redis')
    assert.isNotEmpty(await clientIdsOf(room.admin, prefix))
  })

  test('Redis restarted: workers reconnect and pending jobs finish once', async ({ assert }) => {
    const port = await freePort()
    const dir = await mkdtemp(join(app.makePath('tmp'), 'redis-restart-'))
    const startServer = async () => {
      const server = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
          ...['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
        ],
        { stdio: 'ignore' }
      )
      room.children.push(server)
      const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 })
      probe.on('error', () => {})
      await waitFor(async () => {
        try {
          await probe.connect()
          return true
        } catch {
          probe.disconnect()
          return false
        }
      }, 5000)
      probe.disconnect()
      return server
    }

    try {
      let server = await startServer()
      const driver = driverFor(newPrefix(), { url: `redis://127.0.0.1:${port}` })
      const done: number[] = []
      await driver.work([
        job(
          'steady',
          async ({ n }) => {
            await sleep(150)
            done.push(n)
          },
          { concurrency: 2 }
        ),
      ])
      for (let n = 0; n < 10; n++) {
        await driver.dispatch('steady', { n }, { delayMs: n < 6 ? 0 : 1000 })
      }
      await waitFor(() => done.length >= 1)

      server.kill('SIGTERM')
      await once(server, 'exit')
      await sleep(500)
      server = await startServer()

      await waitFor(() => done.length === 10, 15_000)
      await sleep(300)
      assert.sameMembers(
        done,
        Array.from({ length: 10 }, (_, n) => n)
      )
      await driver.close()
    } finally {
      for (const child of room.children) if (child.exitCode === null) child.kill('SIGKILL')
      await rm(dir, { recursive: true, force: true })
    }
  }).skip(!hasRedisServer, 'redis-server is not installed')

  test('a wait of 2 s survives a restart of the driver', async ({ assert }) => {
    const prefix = newPrefix()
    const runs: { runId: string; at: number }[] = []
    const wake = job('wake', async ({ runId }) => runs.push({ runId, at: Date.now() }))
    const wait = { delayMs: 2000, jobId: 'resume:r1' }

    const first = driverFor(prefix)
    await first.work([wake])
    const dispatchedAt = Date.now()
    await first.dispatch('wake', { runId: 'r1' }, wait)
    await first.close()

    const second = driverFor(prefix)
    // Owners dispatch their waits again at boot; the jobId makes it a no-op here.
    await second.dispatch('wake', { runId: 'r1' }, wait)
    await second.work([wake])
    await waitFor(() => runs.length === 1, 5000)
    await sleep(300)

    assert.lengthOf(runs, 1)
    assert.isAtLeast(runs[0].at - dispatchedAt, 1990)
    assert.isBelow(runs[0].at - dispatchedAt, 3500)
  })

  // Two `ace` processes boot here: about 15 s of CPU each, over a minute of wall time on a
  // 2-core machine at load average 10, hence the long time-out.
  test('node ace queue:work: refuses the in-process driver; with BullMQ stops on SIGTERM', async ({
    assert,
  }) => {
    const ace = (env: Record<string, string>) => {
      const child = spawn(process.execPath, ['--no-node-snapshot', 'ace.js', 'queue:work'], {
        cwd: app.makePath(),
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      room.children.push(child)
      return child
    }

    // Both boot at once: neither depends on the other, and a boot is most of the time here.
    const embedded = ace({ QUEUE_DRIVER: 'in-process' })
    const embeddedOutput = outputOf(embedded)
    const embeddedExit = once(embedded, 'exit')
    const prefix = newPrefix()
    const worker = ace({ QUEUE_DRIVER: 'bullmq', REDIS_URL, QUEUE_PREFIX: prefix })
    const workerOutput = outputOf(worker)

    const [code] = await embeddedExit
    assert.equal(code, 1)
    assert.match(embeddedOutput.text, /the web process runs the jobs/)

    await workerOutput.waitFor(/Working \d+ job types on bullmq/, 120_000)
    const exited = once(worker, 'exit')
    worker.kill('SIGTERM')
    // Bounded, so that a worker that does not stop fails with what it printed.
    const stopped = await Promise.race([
      exited.then(([exitCode]) => ({ exitCode })),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000)),
    ])
    assert.isNotNull(stopped, `the worker still runs 60 s after SIGTERM:\n${workerOutput.text}`)
    assert.equal(stopped!.exitCode, 0, workerOutput.text)
  }).timeout(300_000)
})
