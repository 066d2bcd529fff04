/*
| npm run bench -- <name> [...]: runs the named benchmarks (all when none is named) and writes
| a JSON and a Markdown report per benchmark to bench/results/.
| A benchmark is a file bench/<name>.bench.ts exporting `run(): Promise<BenchReport>`, and
| optionally `guard(): Promise<GuardCheck[]>`, its short run for `npm run bench -- guard`
| (bench/guard.bench.ts). The guard is left out of "all benchmarks": it reruns the others.
| A report with `failed` set ends the command with exit code 1, after its reports are written.
*/
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

export interface BenchReport {
  name: string
  /** One line per measured figure: what, value, unit, and the aim where there is one. */
  results: { metric: string; value: number; unit: string; aim?: string; met?: boolean }[]
  notes?: string[]
  /** Set when the benchmark's checks failed (the guard): the command exits non-zero. */
  failed?: string
}

/** One figure of a bench's guard, against a reference measured in the same run. */
export interface GuardCheck {
  metric: string
  value: number
  /** The same-run reference the value is judged against (e.g. PostgreSQL upserts/s). */
  reference?: number
  /** value / reference, when judged as a ratio. */
  ratio?: number
  /** What the ratio (or the value) must reach. */
  threshold: number
  ok: boolean
  detail?: string
}

const here = dirname(fileURLToPath(import.meta.url))
const available = (await readdir(here))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''))
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'))
// `guard chat`: the guard of the named benches only (bench/guard.bench.ts reads the rest).
const names =
  wanted[0] === 'guard'
    ? ['guard']
    : wanted.length
      ? wanted
      : available.filter((n) => n !== 'guard')

const unknown = names.filter((n) => !available.includes(n))
if (unknown.length) {
  console.error(
    `Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ') || 'none'}`
  )
  process.exit(1)
}

await mkdir(join(here, 'results'), { recursive: true })
const failures: string[] = []
for (const name of names) {
  const mod = await import(`./${name}.bench.ts`)
  console.log(`[bench] ${name}…`)
  const report: BenchReport = await mod.run()
  const stamp = new Date().toISOString()
  await writeFile(
    join(here, 'results', `${name}.json`),
    JSON.stringify({ ...report, at: stamp }, null, 2)
  )
  const md = [
    `# Benchmark: ${report.name}`,
    '',
    `Run at ${stamp} on ${process.platform}/${process.arch}, Node ${process.version}.`,
    '',
    '| metric | value | unit | aim | met |',
    '|---|---|---|---|---|',
    ...report.results.map(
      (r) =>
        `| ${r.metric} | ${r.value} | ${r.unit} | ${r.aim ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : 'no'} |`
    ),
    '',
    ...(report.notes ?? []).map((n) => `- ${n}`),
    '',
  ].join('\n')
  await writeFile(join(here, 'results', `${name}.md`), md)
  console.log(md)
  if (report.failed) failures.push(`${name}: ${report.failed}`)
}
if (failures.length) {
  console.error(`[bench] failed: ${failures.join('; ')}`)
  process.exit(1)
}
process.exit(0)
