/*
| npm run bench -- guard: the regression guard CI runs (.ci/run). Every bench/<name>.bench.ts
| that exports `guard()` runs a short version of itself (a few seconds) against a reference
| measured in the same run (PostgreSQL upserts, a peer product, a byte budget) and says per
| figure whether it holds. The guard prints one table and fails (exit code 1) when any
| check fails, so that a slowdown of the size issue 32 found cannot land unnoticed.
| `npm run bench -- guard chat` runs only the named benches' guards.
*/
import { readdir } from 'node:fs/promises'
import { loadavg } from 'node:os'
import type { BenchReport, GuardCheck } from './run.ts'

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'guard')

function cell(n: number | undefined) {
  return n === undefined ? '' : String(n)
}

export async function run(): Promise<BenchReport> {
  const names = (await readdir(import.meta.dirname))
    .filter((f) => f.endsWith('.bench.ts') && f !== 'guard.bench.ts')
    .map((f) => f.replace('.bench.ts', ''))
    .filter((name) => wanted.length === 0 || wanted.includes(name))
  const checks: (GuardCheck & { bench: string })[] = []
  for (const name of names) {
    const mod = await import(`./${name}.bench.ts`)
    if (typeof mod.guard !== 'function') continue
    console.log(`[guard] ${name}…`)
    const startedAt = performance.now()
    try {
      const results: GuardCheck[] = await mod.guard()
      for (const check of results) checks.push({ bench: name, ...check })
    } catch (error) {
      // A guard that cannot measure fails: a broken bench must not read as a pass.
      checks.push({
        bench: name,
        metric: `${name}: the guard ran`,
        value: 0,
        threshold: 1,
        ok: false,
        detail: error instanceof Error ? error.message.split('\n')[0] : String(error),
      })
    }
    console.log(`[guard] ${name}: ${((performance.now() - startedAt) / 1000).toFixed(1)} s`)
  }
  if (checks.length === 0) throw new Error(`no guard() in ${names.join(', ') || 'any bench'}`)

  const table = [
    '| | check | value | reference | ratio | threshold | detail |',
    '|---|---|---|---|---|---|---|',
    ...checks.map(
      (c) =>
        `| ${c.ok ? 'ok' : 'FAIL'} | ${c.metric} | ${c.value} | ${cell(c.reference)} | ${cell(c.ratio)} | ${c.threshold} | ${c.detail ?? ''} |`
    ),
  ].join('\n')
  console.log(table)
  const failed = checks.filter((c) => !c.ok)
  return {
    name: 'guard',
    results: checks.map((c) => ({
      metric: c.metric,
      value: c.ratio ?? c.value,
      unit: c.ratio === undefined ? '' : `ratio to ${c.reference}`,
      aim: `threshold ${c.threshold}`,
      met: c.ok,
    })),
    notes: [
      `Load average (1, 5, 15 min) at the end: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')}.`,
      ...checks.filter((c) => c.detail).map((c) => `${c.metric}: ${c.detail}`),
    ],
    failed: failed.length ? failed.map((c) => c.metric).join('; ') : undefined,
  }
}
