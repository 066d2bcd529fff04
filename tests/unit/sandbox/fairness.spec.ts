import { test } from '@japa/runner'
import { SandboxPool } from '#sandbox/pool'
import type { SandboxResult } from '#sandbox/types'

/**
 * Sharing the pool between workspaces (docs/sandbox.md). Fairness is asserted by order (what
 * settles first), never by timing thresholds: runaway runs get long time-outs and are
 * cancelled once the assertion is made.
 */

const RUNAWAY = 'while (true) {}'

/** Calls `run` and records, in `order`, the label once its result is in. */
function track(order: string[], label: string, run: Promise<SandboxResult>) {
  return run.then((result) => {
    order.push(label)
    return result
  })
}

function errorOf(result: SandboxResult) {
  return result.ok ? undefined : result.error
}

test.group('Sandbox | fair sharing between workspaces', () => {
  test('six runaway runs of one workspace do not delay another workspace', async ({ assert }) => {
    const pool = new SandboxPool({ size: 2 })
    const stop = new AbortController()
    const order: string[] = []
    const runaways = Array.from({ length: 6 }, (_, i) =>
      track(
        order,
        `A${i}`,
        pool.run(RUNAWAY, { workspaceId: 'A', timeoutMs: 60_000, signal: stop.signal })
      )
    )
    assert.deepEqual(pool.stats().workspaces.A, { running: 1, waiting: 5 })

    for (let i = 0; i < 20; i++) {
      const result = await track(
        order,
        `B${i}`,
        pool.run('return variables.i * 2', { workspaceId: 'B', variables: { i } })
      )
      assert.equal(result.ok && result.value, i * 2)
    }
    assert.deepEqual(
      order,
      Array.from({ length: 20 }, (_, i) => `B${i}`),
      'every run of B finished while A still held its runaway runs'
    )

    stop.abort()
    const stopped = await Promise.all(runaways)
    for (const result of stopped) assert.equal(errorOf(result)?.name, 'AbortError')
    assert.deepEqual(pool.stats().workspaces, {})
    await pool.dispose()
  })

  test('two workspaces with runaway code still leave the reserve to a third', async ({
    assert,
  }) => {
    const pool = new SandboxPool({ size: 2, reserve: 1 })
    const stop = new AbortController()
    const order: string[] = []
    const runaways = ['A', 'C'].flatMap((workspaceId) =>
      [1, 2, 3].map((i) =>
        track(
          order,
          `${workspaceId}${i}`,
          pool.run(RUNAWAY, { workspaceId, timeoutMs: 60_000, signal: stop.signal })
        )
      )
    )
    const quick = await track(order, 'B', pool.run('return "B"', { workspaceId: 'B' }))
    assert.equal(quick.ok && quick.value, 'B')
    assert.deepEqual(order, ['B'])
    // The reserve is for a workspace with nothing in flight: a second run of A waits.
    assert.deepEqual(pool.stats().workspaces.A, { running: 1, waiting: 2 })
    assert.isAtMost(pool.stats().isolates, 3)
    stop.abort()
    await Promise.all(runaways)
    await pool.dispose()
  })

  test('freed capacity goes to the workspace served least recently, not to the longest queue', async ({
    assert,
  }) => {
    // One isolate: completion order is start order.
    const pool = new SandboxPool({ size: 1, reserve: 0 })
    const order: string[] = []
    const slow = 'await new Promise((resolve) => setTimeout(resolve, 30)); return 1'
    const runs = [
      track(order, 'A1', pool.run(slow, { workspaceId: 'A' })),
      track(order, 'A2', pool.run(slow, { workspaceId: 'A' })),
      track(order, 'A3', pool.run(slow, { workspaceId: 'A' })),
      track(order, 'B1', pool.run('return 2', { workspaceId: 'B' })),
      track(order, 'B2', pool.run('return 2', { workspaceId: 'B' })),
      track(order, 'C1', pool.run('return 3', { workspaceId: 'C' })),
    ]
    assert.deepEqual(pool.stats().workspaces, {
      A: { running: 1, waiting: 2 },
      B: { running: 0, waiting: 2 },
      C: { running: 0, waiting: 1 },
    })
    const results = await Promise.all(runs)
    assert.isTrue(results.every((result) => result.ok))
    assert.deepEqual(order, ['A1', 'B1', 'C1', 'A2', 'B2', 'A3'])
    await pool.dispose()
  })

  test('the per-workspace cap is honoured and stays below the pool size', async ({ assert }) => {
    assert.equal(new SandboxPool({ size: 2 }).maxPerWorkspace, 1)
    assert.equal(new SandboxPool({ size: 8 }).maxPerWorkspace, 4)
    assert.equal(new SandboxPool({ size: 3, maxPerWorkspace: 3 }).maxPerWorkspace, 2)
    assert.equal(new SandboxPool({ size: 1 }).maxPerWorkspace, 1)

    const pool = new SandboxPool({ size: 4, maxPerWorkspace: 2, reserve: 0 })
    let most = 0
    const sample = setInterval(() => {
      most = Math.max(most, pool.stats().workspaces.A?.running ?? 0)
    }, 2)
    const wait = 'await new Promise((resolve) => setTimeout(resolve, 40)); return variables.i'
    const runs = Array.from({ length: 6 }, (_, i) =>
      pool.run(wait, { workspaceId: 'A', variables: { i } })
    )
    assert.deepEqual(pool.stats().workspaces.A, { running: 2, waiting: 4 })
    // The two isolates A cannot use are there for others right away.
    const other = await Promise.all([
      pool.run('return 1', { workspaceId: 'B' }),
      pool.run('return 2', { workspaceId: 'C' }),
    ])
    assert.deepEqual(
      other.map((result) => result.ok && result.value),
      [1, 2]
    )
    const results = await Promise.all(runs)
    clearInterval(sample)
    assert.deepEqual(
      results.map((result) => result.ok && result.value),
      [0, 1, 2, 3, 4, 5]
    )
    assert.equal(most, 2)
    await pool.dispose()
  })

  test('a waiting run whose caller aborts leaves the queue and never runs', async ({ assert }) => {
    const pool = new SandboxPool({ size: 1, reserve: 0 })
    const order: string[] = []
    const first = new AbortController()
    const second = new AbortController()
    const running = track(
      order,
      'running',
      pool.run(RUNAWAY, { workspaceId: 'A', timeoutMs: 60_000, signal: first.signal })
    )
    const dropped = track(
      order,
      'dropped',
      pool.run('setVariable("ran", true); return "ran"', {
        workspaceId: 'A',
        signal: second.signal,
      })
    )
    const next = track(order, 'next', pool.run('return "next"', { workspaceId: 'A' }))
    assert.equal(pool.stats().waiting, 2)

    second.abort()
    const cancelled = await dropped
    assert.deepEqual(errorOf(cancelled), {
      name: 'AbortError',
      message: 'The script was cancelled before it started',
    })
    assert.deepEqual(cancelled.variablesSet, [])
    assert.deepEqual(order, ['dropped'])
    assert.deepEqual(pool.stats().workspaces.A, { running: 1, waiting: 1 })

    // Aborting a running run disposes its isolate at once; the queue moves on.
    first.abort()
    assert.deepEqual(errorOf(await running), {
      name: 'AbortError',
      message: 'The script was cancelled while it ran',
    })
    const after = await next
    assert.equal(after.ok && after.value, 'next')
    assert.deepEqual(order, ['dropped', 'running', 'next'])
    await pool.dispose()
  })

  test('a signal that is already aborted runs nothing', async ({ assert }) => {
    const pool = new SandboxPool({ size: 1 })
    const result = await pool.run('return 1', { workspaceId: 'A', signal: AbortSignal.abort() })
    assert.equal(errorOf(result)?.name, 'AbortError')
    assert.equal(pool.stats().created, 0)
    await pool.dispose()
  })

  test('a workspace queue is bounded, with a clear error; other workspaces still queue', async ({
    assert,
  }) => {
    const pool = new SandboxPool({ size: 1, reserve: 0, maxQueuedPerWorkspace: 2 })
    const stop = new AbortController()
    const options = { workspaceId: 'A', timeoutMs: 60_000, signal: stop.signal }
    const held = [
      pool.run(RUNAWAY, options),
      pool.run(RUNAWAY, options),
      pool.run(RUNAWAY, options),
    ]
    const refused = await pool.run('return 1', { workspaceId: 'A' })
    assert.deepEqual(errorOf(refused), {
      name: 'SandboxBusyError',
      message:
        'Too many scripts of this workspace are waiting for the sandbox (at most 2 may wait, 1 run at once); try again later',
    })
    const otherWorkspace = pool.run('return "B"', { workspaceId: 'B' })
    assert.deepEqual(pool.stats().workspaces.B, { running: 0, waiting: 1 })
    // A's waiting runs leave on the abort, its running one frees the isolate, B runs.
    stop.abort()
    const b = await otherWorkspace
    assert.equal(b.ok && b.value, 'B')
    await Promise.all(held)
    await pool.dispose()
  })

  test('a run that waits too long for its turn is refused with a clear error', async ({
    assert,
  }) => {
    const pool = new SandboxPool({ size: 1, reserve: 0, maxQueueWaitMs: 50 })
    const stop = new AbortController()
    const order: string[] = []
    const held = track(
      order,
      'held',
      pool.run(RUNAWAY, { workspaceId: 'A', timeoutMs: 60_000, signal: stop.signal })
    )
    const waited = await track(order, 'waited', pool.run('return 1', { workspaceId: 'A' }))
    assert.deepEqual(errorOf(waited), {
      name: 'SandboxBusyError',
      message:
        'The script waited 50 ms for the sandbox without starting (this workspace runs at most 1 at once); try again later',
    })
    assert.deepEqual(order, ['waited'])
    assert.equal(pool.stats().waiting, 0)
    stop.abort()
    await held
    await pool.dispose()
  })

  test('a timed-out runaway run hands its place to the next workspace in turn', async ({
    assert,
  }) => {
    const pool = new SandboxPool({ size: 1, reserve: 0 })
    const order: string[] = []
    const runs = [
      track(order, 'A1', pool.run(RUNAWAY, { workspaceId: 'A', timeoutMs: 100 })),
      track(order, 'A2', pool.run(RUNAWAY, { workspaceId: 'A', timeoutMs: 100 })),
      track(order, 'B1', pool.run('return 1', { workspaceId: 'B' })),
    ]
    const [a1, a2, b1] = await Promise.all(runs)
    assert.equal(errorOf(a1)?.name, 'TimeoutError')
    assert.equal(errorOf(a2)?.name, 'TimeoutError')
    assert.isTrue(b1.ok)
    assert.deepEqual(order, ['A1', 'B1', 'A2'])
    await pool.dispose()
  })

  test('disposing the pool refuses waiting runs of every workspace', async ({ assert }) => {
    const pool = new SandboxPool({ size: 1, reserve: 0 })
    const running = pool.run(RUNAWAY, { workspaceId: 'A', timeoutMs: 60_000 })
    const waiting = [
      pool.run('return 1', { workspaceId: 'A' }),
      pool.run('return 1', { workspaceId: 'B' }),
    ]
    await pool.dispose()
    for (const result of [await running, ...(await Promise.all(waiting))]) {
      assert.equal(errorOf(result)?.name, 'SandboxError')
    }
    assert.equal(pool.stats().waiting, 0)
  })
})
