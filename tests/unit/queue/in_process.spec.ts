import { test } from '@japa/runner'
import { InProcessDriver } from '#queue/in_process_driver'
import { cronMatches, InvalidCronError, nextCronTime, parseCron } from '#queue/cron'
import {
  closeQueue,
  defineJob,
  dispatch,
  queueDriver,
  registerJobModules,
  removeRepeat,
  repeat,
  startWorkers,
} from '#queue/queue'
import QueueProvider from '#providers/queue_provider'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { RetryLater, type JobContext, type JobDefinition } from '#queue/types'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor(condition: () => boolean, timeoutMs = 3000) {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('Timed out waiting for a condition')
    await sleep(5)
  }
}

function job<P = any>(
  name: string,
  handler: JobDefinition<P>['handler'],
  extra: Partial<JobDefinition<P>> = {}
): JobDefinition<P> {
  return { name, handler, ...extra }
}

const utc = (iso: string) => Date.parse(iso)

test.group('Queue | in-process driver', (group) => {
  let driver: InProcessDriver
  group.each.setup(() => {
    driver = new InProcessDriver({ closeTimeoutMs: 2000 })
    return () => driver.close()
  })

  test('runs a job with a JSON copy of its payload', async ({ assert }) => {
    const seen: { payload: any; context: JobContext }[] = []
    await driver.work([job('greet', async (payload, context) => seen.push({ payload, context }))])
    const payload = { at: new Date('2026-01-01T00:00:00Z'), list: [1, 2] }
    const id = await driver.dispatch('greet', payload)
    payload.list.push(3)
    await waitFor(() => seen.length === 1)

    assert.deepEqual(seen[0].payload, { at: '2026-01-01T00:00:00.000Z', list: [1, 2] })
    assert.equal(seen[0].context.jobId, id)
    assert.equal(seen[0].context.attempt, 1)
    assert.isFalse(seen[0].context.signal.aborted)
    await waitFor(() => driver.counts().active === 0)
    assert.deepEqual(driver.counts(), { delayed: 0, waiting: 0, active: 0, repeats: 0 })
  })

  test('the handler never runs inside the dispatch call', async ({ assert }) => {
    const order: string[] = []
    await driver.work([job('order', async () => order.push('handler'))])
    await driver.dispatch('order', null)
    order.push('after dispatch')
    await waitFor(() => order.length === 2)
    assert.deepEqual(order, ['after dispatch', 'handler'])
  })

  test('jobs dispatched before work() wait for it', async ({ assert }) => {
    let runs = 0
    await driver.dispatch('early', {})
    await sleep(50)
    assert.equal(driver.counts().waiting, 1)
    await driver.work([job('early', async () => runs++)])
    await waitFor(() => runs === 1)
  })

  test('runs at most `concurrency` jobs of a name at a time', async ({ assert }) => {
    let running = 0
    let maxRunning = 0
    let done = 0
    let otherMax = 0
    let otherRunning = 0
    await driver.work([
      job(
        'limited',
        async () => {
          running++
          maxRunning = Math.max(maxRunning, running)
          await sleep(30)
          running--
          done++
        },
        { concurrency: 3 }
      ),
      job('default-limit', async () => {
        otherRunning++
        otherMax = Math.max(otherMax, otherRunning)
        await sleep(30)
        otherRunning--
      }),
    ])
    for (let i = 0; i < 12; i++) await driver.dispatch('limited', { i })
    for (let i = 0; i < 12; i++) await driver.dispatch('default-limit', { i })
    await waitFor(() => done === 12)

    assert.equal(maxRunning, 3)
    // The limit is per job name, and 5 when the definition does not say.
    await waitFor(() => driver.counts().active === 0)
    assert.equal(otherMax, 5)
  })

  test('freeSlots: jobs of a name that would start at once', async ({ assert }) => {
    assert.equal(driver.freeSlots('slow'), 0, 'not worked here')
    const release: (() => void)[] = []
    await driver.work([
      job('slow', () => new Promise<void>((resolve) => release.push(resolve)), { concurrency: 2 }),
    ])
    assert.equal(driver.freeSlots('slow'), 2)
    await driver.dispatch('slow', {})
    // Waiting for its turn counts too: it will take the slot.
    assert.equal(driver.freeSlots('slow'), 1)
    await waitFor(() => release.length === 1)
    assert.equal(driver.freeSlots('slow'), 1)
    await driver.dispatch('slow', {})
    await driver.dispatch('slow', {})
    assert.equal(driver.freeSlots('slow'), 0)
    await waitFor(() => release.length === 2)
    release.shift()!()
    await waitFor(() => release.length === 2 && driver.counts().waiting === 0)
    assert.equal(driver.freeSlots('slow'), 0, 'the waiting job took the freed slot')
    release.splice(0).forEach((done) => done())
    await waitFor(() => driver.counts().active === 0)
    assert.equal(driver.freeSlots('slow'), 2)
    await driver.close()
    assert.equal(driver.freeSlots('slow'), 0, 'closed')
  })

  test('delayMs holds a job back', async ({ assert }) => {
    const started: Record<string, number> = {}
    await driver.work([job('later', async ({ tag }) => (started[tag] = Date.now()))])
    const dispatchedAt = Date.now()
    await driver.dispatch('later', { tag: 'delayed' }, { delayMs: 200 })
    await driver.dispatch('later', { tag: 'now' })
    assert.equal(driver.counts().delayed, 1)
    await waitFor(() => 'delayed' in started)

    assert.isAtLeast(started.delayed - dispatchedAt, 195)
    assert.isBelow(started.now, started.delayed)
  })

  test('retries with backoff until an attempt succeeds', async ({ assert }) => {
    const attempts: { attempt: number; at: number }[] = []
    await driver.work([
      job('flaky', async (_payload, { attempt }) => {
        attempts.push({ attempt, at: Date.now() })
        if (attempt < 3) throw new Error(`attempt ${attempt} fails`)
      }),
    ])
    const id = await driver.dispatch('flaky', {}, { attempts: 3, backoffMs: 100 })
    await waitFor(() => attempts.length === 3)

    assert.deepEqual(
      attempts.map((a) => a.attempt),
      [1, 2, 3]
    )
    assert.isAtLeast(attempts[1].at - attempts[0].at, 95)
    assert.isAtLeast(attempts[2].at - attempts[1].at, 95)
    await waitFor(() => driver.counts().active === 0)
    // Finished: its id may be used again.
    assert.notEqual(await driver.dispatch('flaky', {}, { jobId: id }), undefined)
  })

  test('calls onFailed once, after the last attempt', async ({ assert }) => {
    let runs = 0
    const failures: { payload: any; error: unknown; attempt: number }[] = []
    await driver.work([
      job(
        'doomed',
        async () => {
          runs++
          throw new Error('always')
        },
        {
          onFailed: (payload, error, context) => {
            failures.push({ payload, error, attempt: context.attempt })
          },
        }
      ),
      // A handler that throws before returning a promise is a failure like any other.
      job('sync-throw', (() => {
        throw new Error('sync')
      }) as any),
    ])
    await driver.dispatch('doomed', { runId: 7 }, { attempts: 2, backoffMs: 10 })
    await driver.dispatch('sync-throw', {})
    await waitFor(() => failures.length === 1)
    await sleep(50)

    assert.equal(runs, 2)
    assert.lengthOf(failures, 1)
    assert.deepEqual(failures[0].payload, { runId: 7 })
    assert.equal((failures[0].error as Error).message, 'always')
    assert.equal(failures[0].attempt, 2)
    assert.deepEqual(driver.counts(), { delayed: 0, waiting: 0, active: 0, repeats: 0 })
  })

  test('a jobId is queued once while it exists; per job name', async ({ assert }) => {
    const runs: string[] = []
    await driver.work([
      job('once', async ({ n }) => runs.push(`once:${n}`)),
      job('other', async ({ n }) => runs.push(`other:${n}`)),
    ])
    const first = await driver.dispatch('once', { n: 1 }, { jobId: 'run-42', delayMs: 100 })
    const second = await driver.dispatch('once', { n: 2 }, { jobId: 'run-42' })
    await driver.dispatch('other', { n: 3 }, { jobId: 'run-42' })
    assert.equal(first, 'run-42')
    assert.equal(second, 'run-42')
    await waitFor(() => runs.length === 2)
    await sleep(50)
    assert.sameMembers(runs, ['once:1', 'other:3'])

    await driver.dispatch('once', { n: 4 }, { jobId: 'run-42' })
    await waitFor(() => runs.length === 3)
    assert.equal(runs[2], 'once:4')
  })

  test('RetryLater: the same job runs again later, its attempt not spent, not copied', async ({
    assert,
  }) => {
    const seen: { attempt: number; at: number }[] = []
    await driver.work([
      job('slot', async (_payload, { attempt }) => {
        seen.push({ attempt, at: Date.now() })
        if (seen.length < 3) throw new RetryLater(60)
      }),
    ])
    const started = Date.now()
    await driver.dispatch('slot', {}, { jobId: 'run:1' })
    await waitFor(() => seen.length === 1)
    await sleep(10)
    // Waiting in the delayed state under its id: a dispatch with the id is a no-op.
    assert.deepEqual(driver.counts(), { delayed: 1, waiting: 0, active: 0, repeats: 0 })
    await driver.dispatch('slot', {}, { jobId: 'run:1' })
    await waitFor(() => seen.length === 3)
    await sleep(100)
    assert.lengthOf(seen, 3)
    assert.deepEqual(
      seen.map((s) => s.attempt),
      [1, 1, 1]
    )
    assert.isAtLeast(seen[2].at - started, 115)
    assert.deepEqual(driver.counts(), { delayed: 0, waiting: 0, active: 0, repeats: 0 })
  })

  test('rejects bad options', async ({ assert }) => {
    await assert.rejects(() => driver.dispatch('x', {}, { attempts: 0 }), /attempts/)
    await assert.rejects(() => driver.dispatch('x', {}, { delayMs: -1 }), /delayMs/)
    await assert.rejects(() => driver.dispatch('x', {}, { backoffMs: Number.NaN }), /backoffMs/)
    await assert.rejects(() => driver.repeat('x', {}, { key: 'k' }), /everyMs or cron/)
    await assert.rejects(
      () => driver.repeat('x', {}, { key: 'k', everyMs: 10, cron: '* * * * *' }),
      /everyMs or cron/
    )
    await assert.rejects(() => driver.repeat('x', {}, { key: 'k', cron: '* * *' }), /5 fields/)
  })

  test('repeat every N ms, replaced by key, removed by key', async ({ assert }) => {
    const ticks: { tag: string; jobId: string; at: number }[] = []
    await driver.work([
      job('tick', async ({ tag }, { jobId }) => ticks.push({ tag, jobId, at: Date.now() })),
    ])
    await driver.repeat('tick', { tag: 'old' }, { key: 'wf-1', everyMs: 100 })
    await driver.repeat('tick', { tag: 'new' }, { key: 'wf-1', everyMs: 100 })
    assert.equal(driver.counts().repeats, 1)
    await waitFor(() => ticks.filter((t) => t.tag === 'new').length >= 3)

    // A loaded machine may cross a period boundary between the two calls, so the old
    // repeat can tick once before it is replaced; never after the new one has ticked.
    const tags = ticks.map((t) => t.tag)
    assert.notInclude(tags.slice(tags.indexOf('new')), 'old')
    assert.isAtMost(tags.filter((tag) => tag === 'old').length, 1)
    assert.lengthOf(new Set(ticks.map((t) => t.jobId)), ticks.length)
    // Ticks land on multiples of everyMs since the epoch.
    for (const t of ticks) assert.match(t.jobId, /^repeat:wf-1:\d+00$/)

    await driver.removeRepeat('tick', 'wf-1')
    const count = ticks.length
    await sleep(250)
    assert.equal(ticks.length, count)
    assert.equal(driver.counts().repeats, 0)
  })

  test('ticks missed while the process was busy are not replayed', async ({ assert }) => {
    const ticks: number[] = []
    await driver.work([job('busy-tick', async () => ticks.push(Date.now()))])
    await driver.repeat('busy-tick', {}, { key: 'busy', everyMs: 50 })
    await waitFor(() => ticks.length === 1)

    // Block the event loop for about 8 periods.
    const blockedUntil = Date.now() + 400
    while (Date.now() < blockedUntil) {}
    const before = ticks.length
    await sleep(30)
    // At most one tick for the blocked period (plus one if a period ended during the sleep).
    assert.isAtMost(ticks.length - before, 2)
    await driver.removeRepeat('busy-tick', 'busy')
  })

  test('a cron repeat is scheduled on its next UTC tick', async ({ assert }) => {
    await driver.repeat('report', { a: 1 }, { key: 'daily', cron: '@daily' })
    await driver.repeat('report', { a: 1 }, { key: 'minutely', cron: '* * * * *' })
    const byKey = Object.fromEntries(driver.repeats().map((r) => [r.key, r.nextRunAt]))
    const now = Date.now()
    assert.equal(byKey.minutely, Math.floor(now / 60_000) * 60_000 + 60_000)
    const tomorrow = new Date(now)
    assert.equal(
      byKey.daily,
      Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate() + 1)
    )
  })

  test('close waits for running jobs, drops queued ones and refuses new ones', async ({
    assert,
  }) => {
    const events: string[] = []
    await driver.work([
      job(
        'slow',
        async ({ n }) => {
          events.push(`start ${n}`)
          await sleep(200)
          events.push(`end ${n}`)
        },
        { concurrency: 1 }
      ),
    ])
    await driver.dispatch('slow', { n: 1 })
    await driver.dispatch('slow', { n: 2 })
    await driver.dispatch('slow', { n: 3 }, { delayMs: 50 })
    await driver.repeat('slow', { n: 4 }, { key: 'r', everyMs: 60_000 })
    await waitFor(() => events.length === 1)

    const started = Date.now()
    await driver.close()
    events.push('closed')

    assert.isAtLeast(Date.now() - started, 100)
    assert.deepEqual(events, ['start 1', 'end 1', 'closed'])
    assert.deepEqual(driver.counts(), { delayed: 0, waiting: 0, active: 0, repeats: 0 })
    await assert.rejects(() => driver.dispatch('slow', {}), /closed/)
    await sleep(100)
    assert.deepEqual(events, ['start 1', 'end 1', 'closed'])
  })

  test('close aborts the signal of a job that outlives its timeout', async ({ assert }) => {
    const quick = new InProcessDriver({ closeTimeoutMs: 100 })
    let aborted = false
    let failed = false
    await quick.work([
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
    await quick.dispatch('long', {})
    await waitFor(() => quick.counts().active === 1)
    const started = Date.now()
    await quick.close()

    assert.isTrue(aborted)
    // Stopped by shutdown is not a failure: the owner resumes it at boot.
    assert.isFalse(failed)
    assert.isBelow(Date.now() - started, 3000)
  })
})

test.group('Queue | cron matcher', () => {
  test('next tick, strictly after the given time, in UTC', ({ assert }) => {
    const next = (pattern: string, after: string) =>
      new Date(nextCronTime(pattern, utc(after))).toISOString()

    assert.equal(next('*/15 * * * *', '2026-01-01T00:07:30Z'), '2026-01-01T00:15:00.000Z')
    assert.equal(next('*/15 * * * *', '2026-01-01T00:15:00Z'), '2026-01-01T00:30:00.000Z')
    assert.equal(next('* * * * *', '2026-01-01T23:59:59.999Z'), '2026-01-02T00:00:00.000Z')
    // 2026-01-03 is a Saturday.
    assert.equal(next('0 9 * * 1-5', '2026-01-03T10:00:00Z'), '2026-01-05T09:00:00.000Z')
    assert.equal(next('0 9 * * MON-FRI', '2026-01-05T08:59:00Z'), '2026-01-05T09:00:00.000Z')
    assert.equal(next('0 0 1 1 *', '2026-06-01T00:00:00Z'), '2027-01-01T00:00:00.000Z')
    assert.equal(next('@yearly', '2026-06-01T00:00:00Z'), '2027-01-01T00:00:00.000Z')
    assert.equal(next('0 0 29 2 *', '2026-03-01T00:00:00Z'), '2028-02-29T00:00:00.000Z')
    assert.equal(next('30 8 1 jan,jul *', '2026-02-01T00:00:00Z'), '2026-07-01T08:30:00.000Z')
    assert.equal(next('5/20 * * * *', '2026-01-01T00:06:00Z'), '2026-01-01T00:25:00.000Z')
    assert.equal(next('0 12 * * 7', '2026-01-01T00:00:00Z'), '2026-01-04T12:00:00.000Z')
    assert.equal(next('@hourly', '2026-01-01T10:00:00Z'), '2026-01-01T11:00:00.000Z')
    assert.equal(next('0 0 * * 0', '2025-12-31T00:00:00Z'), '2026-01-04T00:00:00.000Z')
  })

  test('day of month and day of week: either matches when both are restricted', ({ assert }) => {
    // The 13th, or any Friday (Vixie cron).
    const pattern = '0 0 13 * FRI'
    assert.isTrue(cronMatches(pattern, utc('2026-01-13T00:00:00Z'))) // a Tuesday
    assert.isTrue(cronMatches(pattern, utc('2026-01-02T00:00:00Z'))) // a Friday
    assert.isFalse(cronMatches(pattern, utc('2026-01-03T00:00:00Z')))
    // With a '*'-led day field, only the weekday counts.
    assert.isFalse(cronMatches('0 0 */2 * FRI', utc('2026-01-13T00:00:00Z')))
    assert.isTrue(cronMatches('0 0 */2 * FRI', utc('2026-01-09T00:00:00Z')))
    assert.isTrue(cronMatches('*/10 9-17 * * *', utc('2026-01-01T17:50:59Z')))
    assert.isFalse(cronMatches('*/10 9-17 * * *', utc('2026-01-01T18:00:00Z')))
  })

  test('invalid patterns say what is wrong', ({ assert }) => {
    const invalid: [string, RegExp][] = [
      ['* * *', /5 fields/],
      ['61 * * * *', /minute 61 is outside 0-59/],
      ['* 24 * * *', /hour 24/],
      ['5-1 * * * *', /backwards/],
      ['*/0 * * * *', /step/],
      ['* * * FOO *', /month/],
      ['0 0 30 2 *', /never matches/],
      ['1-2-3 * * * *', /range/],
    ]
    for (const [pattern, message] of invalid) {
      assert.throws(() => parseCron(pattern), InvalidCronError)
      assert.throws(() => parseCron(pattern), message)
    }
  })
})

test.group('Queue | facade and provider', (group) => {
  group.each.teardown(() => closeQueue())

  test('defineJob, dispatch by definition or name, startWorkers', async ({ assert }) => {
    const seen: number[] = []
    const double = defineJob<{ n: number }>({
      name: 'test:double',
      handler: async ({ n }) => seen.push(n * 2),
    })
    await startWorkers()
    assert.equal(queueDriver().name, 'in-process')
    await dispatch(double, { n: 2 })
    await dispatch('test:double', { n: 5 })
    await waitFor(() => seen.length === 2)
    assert.sameMembers(seen, [4, 10])

    // The same definition may be registered again (a module imported twice); another may not.
    assert.strictEqual(defineJob(double), double)
    assert.throws(
      () => defineJob({ name: 'test:double', handler: async () => {} }),
      /already defined/
    )
    await assert.rejects(() => dispatch('test:nope', {}), /Unknown job "test:nope"/)
  })

  test('job modules registered by a preload load before the first dispatch', async ({ assert }) => {
    let loaded = 0
    const seen: string[] = []
    registerJobModules([
      async () => {
        loaded++
        defineJob({ name: 'test:lazy', handler: async ({ s }) => seen.push(s) })
      },
    ])
    assert.equal(loaded, 0)
    await dispatch('test:lazy', { s: 'hello' })
    assert.equal(loaded, 1)
    await startWorkers()
    await waitFor(() => seen.length === 1)
    assert.equal(loaded, 1)
    assert.deepEqual(seen, ['hello'])
  })

  test('repeat and removeRepeat through the facade', async ({ assert }) => {
    let ticks = 0
    defineJob({ name: 'test:repeat', handler: async () => ticks++ })
    await startWorkers()
    await repeat('test:repeat', {}, { key: 'k', everyMs: 50 })
    await waitFor(() => ticks >= 2)
    await removeRepeat('test:repeat', 'k')
    const count = ticks
    await sleep(150)
    assert.equal(ticks, count)
  })

  test('closeQueue waits for running jobs and a fresh driver follows', async ({ assert }) => {
    let finished = false
    defineJob({
      name: 'test:slow-close',
      handler: async () => {
        await sleep(150)
        finished = true
      },
    })
    const first = await startWorkers()
    await dispatch('test:slow-close', {})
    await waitFor(() => (first as InProcessDriver).counts().active === 1)
    await closeQueue()
    assert.isTrue(finished)
    assert.notStrictEqual(queueDriver(), first)
  })

  test('QUEUE_DRIVER=bullmq without REDIS_URL fails with a message naming the variables', async ({
    assert,
    cleanup,
  }) => {
    const before = { driver: env.get('QUEUE_DRIVER'), redis: env.get('REDIS_URL') }
    cleanup(() => {
      env.set('QUEUE_DRIVER', before.driver)
      env.set('REDIS_URL', before.redis ?? '')
    })
    env.set('QUEUE_DRIVER', 'bullmq')
    env.set('REDIS_URL', '')
    assert.throws(() => queueDriver(), /QUEUE_DRIVER=bullmq/)
  })

  test('the provider starts workers in the web process only, and closes on terminate', async ({
    assert,
  }) => {
    let runs = 0
    defineJob({ name: 'test:provider', handler: async () => runs++ })
    const hooks: (() => Promise<void>)[] = []
    const fakeApp = (environment: string) =>
      ({
        getEnvironment: () => environment,
        container: app.container,
        terminating: (hook: () => Promise<void>) => hooks.push(hook),
      }) as any

    for (const environment of ['test', 'console', 'repl']) {
      const provider = new QueueProvider(fakeApp(environment))
      provider.boot()
      await provider.ready()
    }
    await dispatch('test:provider', {})
    await sleep(100)
    assert.equal(runs, 0)
    await closeQueue()

    const web = new QueueProvider(fakeApp('web'))
    web.boot()
    await web.ready()
    await dispatch('test:provider', {})
    await waitFor(() => runs === 1)

    const driver = queueDriver() as InProcessDriver
    for (const hook of hooks) await hook()
    assert.isTrue(driver.closed)
  })
})
