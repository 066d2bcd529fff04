/*
| Sandbox start-up and per-run cost.
| cold: new isolate + context + compile + run (what the first run of a fresh pool pays).
| warm: a pooled isolate with a fresh context per run (what every later run pays).
| fairness: workspace B's one-line runs while workspace A keeps 6 `while (true) {}` runs
| going (and while A and C both do), against B alone (docs/sandbox.md).
*/
import { setMaxListeners } from 'node:events'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { SandboxPool } from '#sandbox/pool'
import type { BenchReport } from './run.js'

const SCRIPT = `
  const total = variables.a + variables.b + variables.c
  const name = variables.name.trim().toUpperCase()
  const words = variables.text.split(' ').map((w) => w[0].toUpperCase() + w.slice(1))
  return { total, greeting: 'Hello ' + name + '!', title: words.join(' ') }
`
const VARIABLES = {
  a: 1,
  b: 2.5,
  c: 40,
  name: '  ada lovelace ',
  text: 'the analytical engine weaves algebraic patterns',
}
const EXPECTED = JSON.stringify({
  total: 43.5,
  greeting: 'Hello ADA LOVELACE!',
  title: 'The Analytical Engine Weaves Algebraic Patterns',
})

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return Math.round(sorted[Math.max(0, index)] * 1000) / 1000
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95) }
}

function latencies(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Workspace B's one-line Code block, run one after another (5 ms apart) for `windowMs`. */
async function measureWorkspaceB(pool: SandboxPool, windowMs: number): Promise<number[]> {
  const samples: number[] = []
  const until = performance.now() + windowMs
  let i = 0
  while (performance.now() < until) {
    const started = performance.now()
    const result = await pool.run('return variables.a + 1', {
      workspaceId: 'B',
      variables: { a: i },
    })
    samples.push(performance.now() - started)
    if (!result.ok || result.value !== i + 1) {
      throw new Error(`Workspace B's run failed: ${JSON.stringify(result)}`)
    }
    i++
    await sleep(5)
  }
  return samples
}

/** Keeps `count` runaway runs of a workspace submitted (a new one as soon as one ends). */
function keepRunaways(pool: SandboxPool, workspaceId: string, count: number, signal: AbortSignal) {
  // Every waiting run listens to the one signal.
  setMaxListeners(4 * count, signal)
  let timedOut = 0
  const loops = Array.from({ length: count }, async () => {
    while (!signal.aborted) {
      const result = await pool.run('while (true) {}', { workspaceId, signal })
      if (!result.ok && result.error.name === 'TimeoutError') timedOut++
    }
  })
  return { done: Promise.all(loops), timedOut: () => timedOut }
}

async function fairness() {
  // The pool a 2-core server gets by default: 2 isolates, 1 per workspace, 1 in reserve.
  const pool = new SandboxPool({ size: 2 })
  await pool.warm()
  await measureWorkspaceB(pool, 500)
  const windowMs = 12_000
  const alone = await measureWorkspaceB(pool, windowMs)

  const stopA = new AbortController()
  const attackA = keepRunaways(pool, 'A', 6, stopA.signal)
  await sleep(50)
  const heldByA = pool.stats().workspaces.A
  const underA = await measureWorkspaceB(pool, windowMs)
  stopA.abort()
  await attackA.done

  const stopAC = new AbortController()
  const attackAC = ['A', 'C'].map((id) => keepRunaways(pool, id, 6, stopAC.signal))
  await sleep(50)
  const underAC = await measureWorkspaceB(pool, windowMs)
  stopAC.abort()
  await Promise.all(attackAC.map((attack) => attack.done))
  await pool.dispose()

  return {
    alone: latencies(alone),
    underA: latencies(underA),
    underAC: latencies(underAC),
    counts: { alone: alone.length, underA: underA.length, underAC: underAC.length },
    heldByA,
    timedOutA: attackA.timedOut(),
    timedOutAC: attackAC.reduce((sum, attack) => sum + attack.timedOut(), 0),
    windowMs,
  }
}

async function check(pool: SandboxPool, workspaceId?: string) {
  const result = await pool.run(SCRIPT, { variables: VARIABLES, workspaceId })
  if (!result.ok || JSON.stringify(result.value) !== EXPECTED) {
    throw new Error(`The benchmark script gave an unexpected result: ${JSON.stringify(result)}`)
  }
}

export async function run(): Promise<BenchReport> {
  const coldRuns = 60
  const cold: number[] = []
  for (let i = 0; i < coldRuns; i++) {
    const pool = new SandboxPool({ size: 1 })
    const started = performance.now()
    await check(pool)
    cold.push(performance.now() - started)
    await pool.dispose()
  }

  const warmRuns = 3000
  const pool = new SandboxPool({ size: 1 })
  await pool.warm()
  for (let i = 0; i < 200; i++) await check(pool)
  const warm: number[] = []
  for (let i = 0; i < warmRuns; i++) {
    const started = performance.now()
    await check(pool)
    warm.push(performance.now() - started)
  }
  // Calls in quick succession leave no idle time to prepare the next context ahead.
  const spaced: number[] = []
  for (let i = 0; i < 300; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2))
    const started = performance.now()
    await check(pool)
    spaced.push(performance.now() - started)
  }
  await pool.dispose()

  // Two workspaces: one alone may use only one of the two isolates.
  const parallelPool = new SandboxPool({ size: 2, maxQueuedPerWorkspace: 4000 })
  await parallelPool.warm()
  const parallelRuns = 4000
  const parallelStarted = performance.now()
  await Promise.all(
    Array.from({ length: parallelRuns }, (_, i) => check(parallelPool, `w${i % 2}`))
  )
  const throughput = Math.round(parallelRuns / ((performance.now() - parallelStarted) / 1000))
  await parallelPool.dispose()

  const fair = await fairness()
  const overhead = Math.round((fair.underA.p99 - fair.alone.p99) * 1000) / 1000
  const overheadAC = Math.round((fair.underAC.p99 - fair.alone.p99) * 1000) / 1000

  const coldStats = summary(cold)
  const warmStats = summary(warm)
  const spacedStats = summary(spaced)
  return {
    name: 'sandbox',
    results: [
      { metric: 'cold run, median', value: coldStats.median, unit: 'ms' },
      { metric: 'cold run, p95', value: coldStats.p95, unit: 'ms' },
      {
        metric: 'warm run back-to-back, median',
        value: warmStats.median,
        unit: 'ms',
        aim: '< 2',
        met: warmStats.median < 2,
      },
      {
        metric: 'warm run back-to-back, p95',
        value: warmStats.p95,
        unit: 'ms',
        aim: '< 2',
        met: warmStats.p95 < 2,
      },
      {
        metric: 'warm run after idle time, median',
        value: spacedStats.median,
        unit: 'ms',
        aim: '< 2',
        met: spacedStats.median < 2,
      },
      {
        metric: 'warm run after idle time, p95',
        value: spacedStats.p95,
        unit: 'ms',
        aim: '< 2',
        met: spacedStats.p95 < 2,
      },
      {
        metric: 'throughput, pool of 2, 4000 parallel runs of 2 workspaces',
        value: throughput,
        unit: 'runs/s',
      },
      { metric: 'workspace B alone, p50', value: fair.alone.p50, unit: 'ms' },
      { metric: 'workspace B alone, p95', value: fair.alone.p95, unit: 'ms' },
      { metric: 'workspace B alone, p99', value: fair.alone.p99, unit: 'ms' },
      { metric: 'workspace B, A runs 6 while(true), p50', value: fair.underA.p50, unit: 'ms' },
      { metric: 'workspace B, A runs 6 while(true), p95', value: fair.underA.p95, unit: 'ms' },
      { metric: 'workspace B, A runs 6 while(true), p99', value: fair.underA.p99, unit: 'ms' },
      { metric: 'workspace B, A runs 6 while(true), max', value: fair.underA.max, unit: 'ms' },
      {
        metric: 'workspace B, A runs 6 while(true), p99 over B alone',
        value: overhead,
        unit: 'ms',
        aim: '< 50',
        met: overhead < 50,
      },
      {
        metric: 'workspace B, A and C run 6 while(true) each, p99',
        value: fair.underAC.p99,
        unit: 'ms',
      },
      {
        metric: 'workspace B, A and C run 6 while(true) each, p99 over B alone',
        value: overheadAC,
        unit: 'ms',
        aim: '< 50',
        met: overheadAC < 50,
      },
    ],
    notes: [
      `cold: ${coldRuns} runs, each in a new pool (new isolate, context, compile, run); disposal not timed.`,
      `warm: ${warmRuns} sequential runs on one pooled 32 MB isolate after 200 warm-up runs; a fresh context per run.`,
      'after idle time: 2 ms pause before each run, which lets the pool prepare the next context in advance.',
      `Machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} at the end; p95 figures move with other load on the machine, medians barely.`,
      'Times are measured around pool.run(), so they include copying variables in, console/result copying out and the JSON checks.',
      `fairness: pool of 2 isolates with the defaults (1 run per workspace at once, 1 isolate in reserve for a workspace with nothing in flight, 10 s time-out). B runs \`return variables.a + 1\` one after another, 5 ms apart, for ${fair.windowMs / 1000} s per scenario (${fair.counts.alone} runs alone, ${fair.counts.underA} while A attacks, ${fair.counts.underAC} while A and C attack).`,
      `fairness: A keeps 6 \`while (true) {}\` runs submitted (a new one as soon as one ends); in the pool that is ${JSON.stringify(fair.heldByA)}; ${fair.timedOutA} of A's runs hit the 10 s time-out during the window (each disposes its isolate and a new one is made). With A and C both attacking, ${fair.timedOutAC} time-outs; B then runs in the reserve isolate.`,
      'fairness: before the fair queue (commit 35e3799), the same 6 runs of A held both isolates and one run of B waited 29,998 ms for them (docs/benchmarks/sandbox.md).',
    ],
  }
}
