import { test } from '@japa/runner'
import { fromBullId, toBullId } from '#queue/bullmq_driver'
import { RetryLater, type JobContext } from '#queue/types'
import { newPrefix, sleep, waitFor, job, bullmqRoom } from '#tests/functional/queue/bullmq_fixtures'

/**
 * The BullMQ driver against a real Redis (REDIS_URL, default 127.0.0.1:6379): the behaviour
 * of the in-process driver, then the faults of a scaled deployment: a worker killed mid-job,
 * dropped connections, a Redis restart, a driver restarted during a wait. Every test works
 * under its own key prefix, and the keys of this run are deleted at the end.
 */

test.group('Queue | BullMQ driver', (group) => {
  const { driverFor } = bullmqRoom(group)

  test('runs a job with a JSON copy of its payload and its context', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    const seen: { payload: any; context: JobContext }[] = []
    await driver.work([job('greet', async (payload, context) => seen.push({ payload, context }))])
    const payload = { at: new Date('2026-01-01T00:00:00Z'), list: [1, 2] }
    const id = await driver.dispatch('greet', payload)
    await waitFor(() => seen.length === 1)

    assert.deepEqual(seen[0].payload, { at: '2026-01-01T00:00:00.000Z', list: [1, 2] })
    assert.equal(seen[0].context.jobId, id)
    assert.equal(seen[0].context.attempt, 1)
    assert.isFalse(seen[0].context.signal.aborted)
    await waitFor(async () => (await driver.counts()).active === 0)
    assert.deepEqual(await driver.counts(), {
      waiting: 0,
      delayed: 0,
      active: 0,
      failed: 0,
      repeats: 0,
    })
  })

  test('ids and names BullMQ would refuse go through unchanged', async ({ assert }) => {
    const ids = ['run:42:2026-01-01T00:00:00.000Z', '42', '0', '-7', '50%', 'plain']
    for (const id of ids) {
      assert.notInclude(toBullId(id), ':')
      assert.notEqual(`${Number.parseInt(toBullId(id), 10)}`, toBullId(id))
      assert.equal(fromBullId(toBullId(id)), id)
    }

    const driver = driverFor(newPrefix())
    const seen: string[] = []
    await driver.work([job('test:ids', async (_payload, { jobId }) => seen.push(jobId))])
    for (const id of ids) assert.equal(await driver.dispatch('test:ids', null, { jobId: id }), id)
    await waitFor(() => seen.length === ids.length)
    assert.sameMembers(seen, ids)
  })

  test('runs at most `concurrency` jobs of a name at a time', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    let running = 0
    let maxRunning = 0
    let done = 0
    let otherRunning = 0
    let otherMax = 0
    let otherDone = 0
    await driver.work([
      job(
        'limited',
        async () => {
          running++
          maxRunning = Math.max(maxRunning, running)
          await sleep(80)
          running--
          done++
        },
        { concurrency: 3 }
      ),
      job('default-limit', async () => {
        otherRunning++
        otherMax = Math.max(otherMax, otherRunning)
        await sleep(80)
        otherRunning--
        otherDone++
      }),
    ])
    for (let i = 0; i < 12; i++) await driver.dispatch('limited', { i })
    for (let i = 0; i < 12; i++) await driver.dispatch('default-limit', { i })
    await waitFor(() => done === 12 && otherDone === 12)

    assert.equal(maxRunning, 3)
    // Per job name, and 5 when the definition does not say.
    assert.equal(otherMax, 5)
  })

  test('delayMs holds a job back', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    const started: Record<string, number> = {}
    await driver.work([job('later', async ({ tag }) => (started[tag] = Date.now()))])
    const dispatchedAt = Date.now()
    await driver.dispatch('later', { tag: 'delayed' }, { delayMs: 300 })
    await driver.dispatch('later', { tag: 'now' })
    // Both, then the delay: on a loaded machine the worker may take the undelayed job only
    // after the 300 ms, so their order proves nothing.
    await waitFor(() => 'delayed' in started && 'now' in started)

    assert.isAtLeast(started.delayed - dispatchedAt, 295)
  })

  test('retries with a fixed backoff; onFailed once after the last attempt', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    const attempts: { attempt: number; at: number }[] = []
    let doomedRuns = 0
    const failures: { payload: any; error: unknown; attempt: number; jobId: string }[] = []
    await driver.work([
      job('flaky', async (_payload, { attempt }) => {
        attempts.push({ attempt, at: Date.now() })
        if (attempt < 3) throw new Error(`attempt ${attempt} fails`)
      }),
      job(
        'doomed',
        async () => {
          doomedRuns++
          throw new Error('always')
        },
        {
          onFailed: (payload, error, context) => {
            failures.push({ payload, error, attempt: context.attempt, jobId: context.jobId })
          },
        }
      ),
      job('sync-throw', (() => {
        throw new Error('sync')
      }) as any),
    ])
    await driver.dispatch('flaky', {}, { attempts: 3, backoffMs: 150 })
    const doomedId = await driver.dispatch('doomed', { runId: 7 }, { attempts: 2, backoffMs: 10 })
    await driver.dispatch('sync-throw', {})
    await waitFor(() => attempts.length === 3 && failures.length === 1)
    await waitFor(async () => (await driver.counts()).failed === 2)
    await sleep(100)

    assert.deepEqual(
      attempts.map((a) => a.attempt),
      [1, 2, 3]
    )
    assert.isAtLeast(attempts[1].at - attempts[0].at, 145)
    assert.isAtLeast(attempts[2].at - attempts[1].at, 145)
    assert.equal(doomedRuns, 2)
    assert.lengthOf(failures, 1)
    assert.deepEqual(failures[0].payload, { runId: 7 })
    assert.equal((failures[0].error as Error).message, 'always')
    assert.equal(failures[0].attempt, 2)
    assert.equal(failures[0].jobId, doomedId)
    // Failed jobs stay in Redis for inspection; the rest is gone.
    assert.deepEqual(await driver.counts(), {
      waiting: 0,
      delayed: 0,
      active: 0,
      failed: 2,
      repeats: 0,
    })
  })

  test('a jobId is queued once while it exists; per job name; free again when done', async ({
    assert,
  }) => {
    const driver = driverFor(newPrefix())
    const runs: string[] = []
    await driver.work([
      job('once', async ({ n }) => runs.push(`once:${n}`)),
      job('other', async ({ n }) => runs.push(`other:${n}`)),
      job('brittle', async ({ n }) => {
        runs.push(`brittle:${n}`)
        if (n === 1) throw new Error('first one fails')
      }),
    ])
    const first = await driver.dispatch('once', { n: 1 }, { jobId: 'run-42', delayMs: 200 })
    const second = await driver.dispatch('once', { n: 2 }, { jobId: 'run-42' })
    await driver.dispatch('other', { n: 3 }, { jobId: 'run-42' })
    assert.equal(first, 'run-42')
    assert.equal(second, 'run-42')
    await waitFor(() => runs.length === 2)
    await sleep(100)
    assert.sameMembers(runs, ['once:1', 'other:3'])

    // Completed: removed from Redis, so the id may be queued again.
    await driver.dispatch('once', { n: 4 }, { jobId: 'run-42' })
    await waitFor(() => runs.includes('once:4'))

    // Failed: kept for inspection, yet over, so the id may be queued again too.
    await driver.dispatch('brittle', { n: 1 }, { jobId: 'b-1' })
    await waitFor(async () => (await driver.counts()).failed === 1)
    await driver.dispatch('brittle', { n: 2 }, { jobId: 'b-1' })
    await waitFor(() => runs.includes('brittle:2'))
    assert.deepEqual(
      runs.filter((r) => r.startsWith('brittle')),
      ['brittle:1', 'brittle:2']
    )
  })

  test('RetryLater: the same job waits in the delayed set, its attempt not spent', async ({
    assert,
  }) => {
    const driver = driverFor(newPrefix())
    const seen: { attempt: number; jobId: string; at: number }[] = []
    await driver.work([
      job('slot', async (_payload, { attempt, jobId }) => {
        seen.push({ attempt, jobId, at: Date.now() })
        if (seen.length < 3) throw new RetryLater(150)
      }),
    ])
    const started = Date.now()
    await driver.dispatch('slot', {}, { jobId: 'run:1' })
    await waitFor(() => seen.length === 1)
    await waitFor(async () => (await driver.counts()).delayed === 1)
    // One job under its id: a dispatch with the id is a no-op, nothing piles up.
    await driver.dispatch('slot', {}, { jobId: 'run:1' })
    assert.deepInclude(await driver.counts(), { waiting: 0, delayed: 1, active: 0 })
    await waitFor(() => seen.length === 3)
    await waitFor(async () => (await driver.counts()).active === 0)
    assert.deepEqual(
      seen.map((s) => [s.attempt, s.jobId]),
      [
        [1, 'run:1'],
        [1, 'run:1'],
        [1, 'run:1'],
      ]
    )
    assert.isAtLeast(seen[2].at - started, 295)
    assert.deepEqual(await driver.counts(), {
      waiting: 0,
      delayed: 0,
      active: 0,
      failed: 0,
      repeats: 0,
    })
  })

  test('rejects bad options', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    await assert.rejects(() => driver.dispatch('x', {}, { attempts: 0 }), /attempts/)
    await assert.rejects(() => driver.dispatch('x', {}, { delayMs: -1 }), /delayMs/)
    await assert.rejects(() => driver.dispatch('x', {}, { backoffMs: Number.NaN }), /backoffMs/)
    await assert.rejects(() => driver.dispatch('x', {}, { jobId: '' }), /jobId/)
    await assert.rejects(() => driver.repeat('x', {}, { key: 'k' }), /everyMs or cron/)
    await assert.rejects(
      () => driver.repeat('x', {}, { key: 'k', everyMs: 10, cron: '* * * * *' }),
      /everyMs or cron/
    )
    await assert.rejects(() => driver.repeat('x', {}, { key: 'k', cron: '* * *' }), /5 fields/)
    await assert.rejects(() => driver.repeat('x', {}, { key: '', everyMs: 10 }), /key/)
  })

  test('repeat every N ms, replaced by key, removed by key', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    const ticks: { tag: string; jobId: string }[] = []
    await driver.work([job('tick', async ({ tag }, { jobId }) => ticks.push({ tag, jobId }))])
    // A tick that falls due between the two calls runs with the old payload (BullMQ has
    // already promoted it); start just after a boundary so both calls land in one period.
    await sleep(200 - (Date.now() % 200) + 10)
    await driver.repeat('tick', { tag: 'old' }, { key: 'wf:1', everyMs: 200 })
    await driver.repeat('tick', { tag: 'new' }, { key: 'wf:1', everyMs: 200 })
    assert.equal((await driver.counts()).repeats, 1)
    await waitFor(() => ticks.length >= 3)

    assert.deepEqual([...new Set(ticks.map((t) => t.tag))], ['new'])
    assert.lengthOf(new Set(ticks.map((t) => t.jobId)), ticks.length)
    // Same ids as in-process: the key and the tick's time, on multiples of everyMs.
    for (const t of ticks) {
      const [, millis] = /^repeat:wf:1:(\d+)$/.exec(t.jobId) ?? []
      assert.equal(Number(millis) % 200, 0, t.jobId)
    }

    await driver.removeRepeat('tick', 'wf:1')
    // A tick already taken by the worker may still finish.
    await sleep(250)
    const count = ticks.length
    await sleep(500)
    assert.equal(ticks.length, count)
    assert.equal((await driver.counts()).repeats, 0)
  })

  test('a cron repeat is scheduled on its next UTC tick', async ({ assert }) => {
    const driver = driverFor(newPrefix())
    await driver.repeat('report', { a: 1 }, { key: 'daily', cron: '@daily' })
    await driver.repeat('report', { a: 1 }, { key: 'minutely', cron: '* * * * *' })
    const byKey = Object.fromEntries(
      (await driver.repeats('report')).map((r) => [r.key, r.nextRunAt])
    )
    const now = Date.now()
    assert.equal(byKey.minutely, Math.floor(now / 60_000) * 60_000 + 60_000)
    const today = new Date(now)
    assert.equal(
      byKey.daily,
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1)
    )
  })

  test('ticks missed while no worker ran are run once, not replayed', async ({ assert }) => {
    const prefix = newPrefix()
    const ticks: number[] = []
    const definition = job('missed', async (_payload, { jobId }) => {
      ticks.push(Number(/:(\d+)$/.exec(jobId)![1]))
    })
    // Registered by a process that does not work jobs (a web process with BullMQ).
    const producer = driverFor(prefix)
    await producer.repeat('missed', {}, { key: 'k', everyMs: 100 })
    await sleep(900)

    const worker = driverFor(prefix)
    const startedAt = Date.now()
    await worker.work([definition])
    await waitFor(() => ticks.length >= 3)
    await producer.removeRepeat('missed', 'k')

    // About 8 ticks were missed: one late tick stands for all of them.
    assert.lengthOf(
      ticks.filter((t) => t < startedAt - 100),
      1
    )
    assert.lengthOf(new Set(ticks), ticks.length)
  })

  test('close waits for the running job, refuses new ones, leaves queued ones in Redis', async ({
    assert,
  }) => {
    const prefix = newPrefix()
    const events: string[] = []
    const slow = job(
      'slow',
      async ({ n }) => {
        events.push(`start ${n}`)
        await sleep(300)
        events.push(`end ${n}`)
      },
      { concurrency: 1 }
    )
    const driver = driverFor(prefix)
    await driver.work([slow])
    await driver.dispatch('slow', { n: 1 })
    await driver.dispatch('slow', { n: 2 })
    await waitFor(() => events.length === 1)

    const started = Date.now()
    await driver.close()
    events.push('closed')
    assert.isAtLeast(Date.now() - started, 150)
    assert.deepEqual(events, ['start 1', 'end 1', 'closed'])
    await assert.rejects(() => driver.dispatch('slow', {}), /closed/)

    // Unlike in-process, the queued job survived the shutdown: the next worker runs it.
    const next = driverFor(prefix)
    await next.work([slow])
    await waitFor(() => events.includes('end 2'))
    assert.deepEqual(events, ['start 1', 'end 1', 'closed', 'start 2', 'end 2'])
  })

  test('close aborts the signal of a job past the timeout and hands the job back', async ({
    assert,
  }) => {
    const prefix = newPrefix()
    let aborted = false
    let failed = false
    const driver = driverFor(prefix, { closeTimeoutMs: 200 })
    await driver.work([
      job(
        'long',
        (_payload, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              aborted = true
              reject(new Error('aborted'))
            })
          }),
        { onFailed: () => void (failed = true) }
      ),
    ])
    const id = await driver.dispatch('long', {})
    await waitFor(async () => (await driver.counts()).active === 1)
    const started = Date.now()
    await driver.close()

    assert.isTrue(aborted)
    assert.isFalse(failed)
    assert.isBelow(Date.now() - started, 1500)
    // Back in the queue with its attempt not spent (attempts: 1 would have failed it).
    const next = driverFor(prefix)
    const seen: JobContext[] = []
    await next.work([job('long', async (_payload, context) => seen.push(context))])
    await waitFor(() => seen.length === 1)
    assert.equal(seen[0].jobId, id)
    assert.equal(seen[0].attempt, 1)
  })
})
