/*
| Sandbox start-up and per-run cost.
| cold: new isolate + context + compile + run (what the first run of a fresh pool pays).
| warm: a pooled isolate with a fresh context per run (what every later run pays).
*/
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

async function check(pool: SandboxPool) {
  const result = await pool.run(SCRIPT, { variables: VARIABLES })
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

  const parallelPool = new SandboxPool({ size: 2 })
  await parallelPool.warm()
  const parallelRuns = 4000
  const parallelStarted = performance.now()
  await Promise.all(Array.from({ length: parallelRuns }, () => check(parallelPool)))
  const throughput = Math.round(parallelRuns / ((performance.now() - parallelStarted) / 1000))
  await parallelPool.dispose()

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
      { metric: 'throughput, pool of 2, 4000 parallel runs', value: throughput, unit: 'runs/s' },
    ],
    notes: [
      `cold: ${coldRuns} runs, each in a new pool (new isolate, context, compile, run); disposal not timed.`,
      `warm: ${warmRuns} sequential runs on one pooled 32 MB isolate after 200 warm-up runs; a fresh context per run.`,
      'after idle time: 2 ms pause before each run, which lets the pool prepare the next context in advance.',
      `Machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} at the end; p95 figures move with other load on the machine, medians barely.`,
      'Times are measured around pool.run(), so they include copying variables in, console/result copying out and the JSON checks.',
    ],
  }
}
