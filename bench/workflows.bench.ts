/*
| npm run bench -- workflows
| Workflow executions under load: a webhook -> set variable -> respond workflow, called by a
| load generator in a second process (bench/workflows_load.ts), on the in-process driver (the
| web process runs the jobs) and on BullMQ (a `node ace queue:work` worker runs them; the
| answer crosses back through the run-event relay). PostgreSQL, production mode, the build
| `npm start` serves (bench/app_build.ts: `node ace build`, BENCH_SKIP_BUILD=1 reuses it). Reports executions/s and p50/p95/p99 per driver, whether every answered call's
| run was recorded as done, and same-run references: PostgreSQL single-row upserts/s and, with
| BENCH_PEER=1, n8n 1.123 running the same workflow (../shared/peer-bench/n8n.sh). Aims
| (issue 32): in-process >= 8x n8n, BullMQ >= 5x n8n. `guard()`: a short in-process run
| against the upsert probe, for `npm run bench -- guard`.
| Then, on BullMQ, the recovery after a worker kill (docs/queue.md): 60 webhook calls to a
| workflow with a wait and an HTTP call (concurrency 5), the worker SIGKILLed while calls are
| in flight, a new one started 5 s later; how long until the runs it held, and all runs, are done.
*/
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import knex from 'knex'
import { measureUpserts } from './upserts.js'
import type { BenchReport } from './run.ts'
import { stop } from './processes.js'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile } from '../bin/prepare.js'
import {
  ROOT,
  PORT,
  BASE,
  DATABASE_URL,
  BENCH_PREFIX,
  type Driver,
  ace,
  PROFILE_DIR,
  DRIVERS,
  node,
  waitForHealth,
} from './workflows_server.js'
import { RECOVERY_CALLS, measureRecovery } from './workflows_recovery.js'

const CALLERS = 50
const DURATION_MS = 20_000
const AIM = 440
/** Executions/s as a multiple of n8n's in the same run (issue 32). */
const PEER_AIM: Record<Driver, number> = { 'in-process': 8, 'bullmq': 5 }
/**
 * The guard's aim: in-process executions/s per PostgreSQL single-row upsert/s in the same run.
 * Issue 32's figures: 442/s per 8,215 upserts/s (0.054) before claims took the workflow's row
 * lock, 114 per 4,786 (0.024) with it; the slots gave 0.047 at a load average of 40
 * (docs/benchmarks/workflows.md). The guard fails below half of the aim: 0.03.
 */
export const GUARD_RATIO_AIM = 0.06

/** Webhook (answered by the respond node) -> set variable -> respond with the variable. */
export function benchWorkflow() {
  const blocks = [
    {
      id: 'hook',
      type: 'webhook-trigger',
      graphCoordinates: { x: 0, y: 0 },
      options: { method: 'POST', responseMode: 'responseNode' },
    },
    {
      id: 'set',
      type: 'workflow-set-variable',
      graphCoordinates: { x: 300, y: 0 },
      options: { variableId: 'v-id', value: '{{$input.body.id}}' },
    },
    {
      id: 'respond',
      type: 'respond-to-webhook',
      graphCoordinates: { x: 600, y: 0 },
      options: { statusCode: 200, body: '{ "ok": true, "id": "{{OrderId}}" }' },
    },
  ]
  return {
    name: 'Bench webhook',
    blocks,
    edges: [
      { id: 'e1', from: { blockId: 'hook' }, to: { blockId: 'set' } },
      { id: 'e2', from: { blockId: 'set' }, to: { blockId: 'respond' } },
    ],
    variables: [{ id: 'v-id', name: 'OrderId' }],
    // Short-lived executions: log retention and the per-workflow cap are not what is measured.
    settings: { concurrency: 200, timeout: 30 },
  }
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** The server (and on BullMQ its worker) with the bench workflow published and active. */
async function startBench(driver: Driver, token: string) {
  const prefix = `${BENCH_PREFIX}-wf-${driver}-${Date.now()}`
  const server = node(['bin/server.js'], driver, prefix)
  const worker = driver === 'bullmq' ? node(['bin/console.js', 'queue:work'], driver, prefix) : null
  const stopAll = async () => {
    if (worker) await stop(worker)
    await stop(server)
  }
  try {
    await waitForHealth()
    const auth = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
    const me = await (await fetch(`${BASE}/api/v1/workspaces`, { headers: auth })).json()
    const created = await fetch(`${BASE}/api/v1/workflows`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ workspaceId: me.workspaces[0].id, workflow: benchWorkflow() }),
    })
    if (!created.ok) throw new Error(`could not create the workflow: ${await created.text()}`)
    const id = (await created.json()).workflow.id as string
    for (const step of ['publish', 'activate']) {
      const answer = await fetch(`${BASE}/api/v1/workflows/${id}/${step}`, {
        method: 'POST',
        headers: auth,
      })
      if (!answer.ok) throw new Error(`could not ${step}: ${await answer.text()}`)
    }
    const pids = [server.pid, worker?.pid].filter((pid): pid is number => pid !== undefined)
    return { id, url: `${BASE}/api/v1/workflows/${id}/webhook`, pids, stop: stopAll }
  } catch (error) {
    await stopAll()
    throw error
  }
}

/**
 * Whether every answered call left its run recorded as done: the runs of the workflow that
 * ended in success, once the last writes (which may follow the answers) have landed.
 */
async function runsRecorded(workflowId: string, answered: number) {
  const db = knex({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } })
  try {
    let done = 0
    for (let i = 0; i < 100; i++) {
      const [row] = await db('workflow_runs')
        .where({ workflow_id: workflowId, status: 'success' })
        .count('* as total')
      done = Number(row.total)
      if (done >= answered) break
      await new Promise((r) => setTimeout(r, 100))
    }
    return done
  } finally {
    await db.destroy()
  }
}

async function measure(driver: Driver, token: string) {
  const bench = await startBench(driver, token)
  try {
    // Warm-up: JIT, pools and caches in their steady state before the clock starts.
    const warmUp = await load(bench.url, 10, 3000)
    // The machine is shared: its load says how much of it the measurement had.
    const loadBefore = loadavg()[0]
    const cpuBefore = cpuMs(bench.pids)
    const result = await load(bench.url, CALLERS, DURATION_MS)
    const cpuAfter = cpuMs(bench.pids)
    const loadAfter = loadavg()[0]
    const sorted = result.latencies.sort((a, b) => a - b)
    const answered = warmUp.latencies.length + sorted.length
    return {
      driver,
      load: `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`,
      executionsPerSecond: Math.round(sorted.length / result.seconds),
      executions: sorted.length,
      cpuPerExecution: Number(((cpuAfter - cpuBefore) / Math.max(1, sorted.length)).toFixed(3)),
      p50: Number(percentile(sorted, 50).toFixed(1)),
      p95: Number(percentile(sorted, 95).toFixed(1)),
      p99: Number(percentile(sorted, 99).toFixed(1)),
      errors: result.errors,
      errorsByStatus: JSON.stringify(result.errorsByStatus ?? {}),
      wrongAnswers: result.wrongAnswers,
      unrecorded: answered - (await runsRecorded(bench.id, answered)),
    }
  } finally {
    await bench.stop()
  }
}

/**
 * CPU time (user + system, ms) the server and the worker have used, from /proc/<pid>/stat.
 * Unlike executions/s, CPU per execution hardly moves with what else runs on a shared
 * machine, so it compares code versions measured minutes apart (0 without /proc).
 */
function cpuMs(pids: number[]) {
  const msPerTick = 10 // USER_HZ = 100 on Linux
  let total = 0
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      total += (Number(fields[11]) + Number(fields[12])) * msPerTick
    } catch {
      // Ended meanwhile, or not Linux: nothing to add.
    }
  }
  return total
}

/** Runs the load generator in its own process and reads its one JSON line. */
function load(url: string, callers: number, ms: number) {
  return new Promise<{
    latencies: number[]
    errors: number
    errorsByStatus?: Record<string, number>
    wrongAnswers: number
    seconds: number
  }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import=ts-node-maintained/register/esm',
        'bench/workflows_load.ts',
        url,
        String(callers),
        String(ms),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }
    )
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`))
      resolve(JSON.parse(out.trim().split('\n').at(-1)!))
    })
  })
}

/** A fresh database, a user on the unlimited plan and their API token. */
async function prepare() {
  const name = new URL(DATABASE_URL).pathname.slice(1)
  spawnSync(
    'psql',
    ['-h', '127.0.0.1', '-U', 'root', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`],
    { encoding: 'utf8' }
  )
  ensureEnvFile(ROOT)
  ace(['migration:fresh', '--force'])
  ace(['db:seed'])
  const email = `bench-wf-${Date.now()}@example.com`
  const token = ace(['user:token', email, '--name', 'bench']).trim().split('\n').at(-1)!.trim()
  const db = knex({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } })
  // Unlimited plan: the activation limit of the free plan stays out of the way.
  await db.raw(
    "UPDATE users SET plan = 'UNLIMITED', plan_ends_at = NOW() + interval '30 days' WHERE email = ?",
    [email]
  )
  await db.destroy()
  return token
}

export async function run(): Promise<BenchReport> {
  const token = await prepare()
  const upserts = await measureUpserts(DATABASE_URL, 4000)

  // Found before the drivers are measured, so that a missing peer fails at once.
  const peerScript = process.env.BENCH_PEER ? findPeerScript() : null
  const rows = []
  for (const driver of DRIVERS) rows.push(await measure(driver, token))
  // Right after the drivers, on the same machine: the ratio is what holds across machines.
  const peer = peerScript ? measurePeer(peerScript) : null
  // BENCH_RECOVERY=0: throughput only (an older commit's "before" figures, say).
  const recovery =
    DRIVERS.includes('bullmq') && process.env.BENCH_RECOVERY !== '0'
      ? await measureRecovery(token)
      : null

  const results: BenchReport['results'] = rows.flatMap((row) => [
    peer
      ? {
          metric: `${row.driver}: executions per second (n8n ${peer.perSecond}/s in this run: ${(row.executionsPerSecond / peer.perSecond).toFixed(1)}x)`,
          value: row.executionsPerSecond,
          unit: 'executions/s',
          aim: `>= ${PEER_AIM[row.driver]}x n8n (${PEER_AIM[row.driver] * peer.perSecond})`,
          met: row.executionsPerSecond >= PEER_AIM[row.driver] * peer.perSecond,
        }
      : {
          metric: `${row.driver}: executions per second`,
          value: row.executionsPerSecond,
          unit: 'executions/s',
          aim: `>= ${AIM}`,
          met: row.executionsPerSecond >= AIM,
        },
    {
      metric: `${row.driver}: server CPU per execution (web process${row.driver === 'bullmq' ? ' + worker' : ''}; load average ${row.load})`,
      value: row.cpuPerExecution,
      unit: 'ms',
    },
    { metric: `${row.driver}: latency p50`, value: row.p50, unit: 'ms' },
    { metric: `${row.driver}: latency p95`, value: row.p95, unit: 'ms' },
    { metric: `${row.driver}: latency p99`, value: row.p99, unit: 'ms' },
    {
      metric: `${row.driver}: errors (by status: ${row.errorsByStatus})`,
      value: row.errors,
      unit: 'calls',
      aim: '0',
      met: row.errors === 0,
    },
    {
      metric: `${row.driver}: wrong answers`,
      value: row.wrongAnswers,
      unit: 'calls',
      aim: '0',
      met: row.wrongAnswers === 0,
    },
    {
      metric: `${row.driver}: answered calls without their run recorded as done`,
      value: row.unrecorded,
      unit: 'runs',
      aim: '0',
      met: row.unrecorded === 0,
    },
    {
      metric: `${row.driver}: executions/s per PostgreSQL upsert/s (same run)`,
      value: Number((row.executionsPerSecond / upserts).toFixed(3)),
      unit: 'ratio',
    },
  ])
  results.push({
    metric: 'PostgreSQL single-row upserts (16 connections, same run)',
    value: upserts,
    unit: 'upserts/s',
  })
  if (peer) {
    results.push({
      metric: `n8n 1.123, same workflow, ${CALLERS} connections (load average ${peer.load})`,
      value: peer.perSecond,
      unit: 'executions/s',
    })
  }
  if (recovery) {
    results.push(
      {
        metric: 'bullmq: runs of the killed worker done, after the new worker is up',
        value: recovery.heldDoneSeconds,
        unit: 's',
        aim: '<= 30',
        met: recovery.heldDoneSeconds <= 30,
      },
      {
        metric: `bullmq: all ${RECOVERY_CALLS} runs done, after the new worker is up`,
        value: recovery.allDoneSeconds,
        unit: 's',
      },
      { metric: 'bullmq: runs held by the killed worker', value: recovery.heldRuns, unit: 'runs' },
      {
        metric: 'bullmq: most runs running at once (limit 5)',
        value: recovery.maxRunning,
        unit: 'runs',
        aim: '<= 5',
        met: recovery.maxRunning <= 5,
      },
      {
        metric: 'bullmq: calls repeated after the kill',
        value: recovery.repeated,
        unit: 'calls',
      },
      {
        metric: 'bullmq: repeated calls with another key than their first attempt',
        value: recovery.keyMismatches,
        unit: 'calls',
        aim: '0',
        met: recovery.keyMismatches === 0,
      },
      {
        metric: 'bullmq: failed runs after recovery',
        value: recovery.failed,
        unit: 'runs',
        aim: '0',
        met: recovery.failed === 0,
      }
    )
  }
  const notes = [
    `${CALLERS} concurrent webhook callers for ${DURATION_MS / 1000} s per driver (after a 3 s warm-up), each waiting for the respond node's answer before its next call; the load generator is a second process on the same machine (node:http, keep-alive).`,
    'Workflow: webhook trigger (respond with a Respond to webhook node) -> set variable from the body -> respond with the variable; every answer is checked against the id sent.',
    `Each execution writes its run record and one record per node (PostgreSQL over TCP on 127.0.0.1, production mode, the build \`npm start\` serves). SQL statements per webhook call: in-process 3 (workflow read; the run inserted already claimed with a concurrency slot when the queue has a free one, else inserted, then claimed: 4; node records and run end in one statement), bullmq 2 in the web process (workflow read, run insert) and 3 in the worker (run with its workflow, claim, node records and run end). A claim takes one of the workflow's slots, which a unique index over the running runs keeps apart across processes: no lock is held from one statement to the next (docs/queue.md, "Concurrency slots"). The capability stamp comes with the workflow read (the run's plan checks share it): no read of its own, where there was one per node.`,
    `Same-run reference: single-row upserts/s PostgreSQL sustains here (16 connections, measured before the drivers); n8n is measured by BENCH_PEER=1 (../shared/peer-bench/n8n.sh, the same webhook -> set -> respond workflow) right after the drivers.`,
    `The machine has ${cpus().length} cores shared by the server, the worker, PostgreSQL, Redis, the load generator and whatever else runs: the load average (1 min) before and after each measurement is in the table.`,
    'bullmq: the web process dispatches, one `node ace queue:work` process executes, and the answer crosses back through Redis pub/sub (run-event relay).',
    `Aims: in-process >= ${PEER_AIM['in-process']}x n8n, bullmq >= ${PEER_AIM.bullmq}x n8n in the same run; without the peer, ${AIM}/s (twice n8n's published 220/s on 2 vCPUs).`,
    `Recovery (bullmq): ${RECOVERY_CALLS} webhook calls to webhook -> wait 1 s -> HTTP POST to a local listener answering in 1 to 3 s -> set variable, concurrency 5, timeout 600 s; the worker is SIGKILLed once 3 calls are in flight, a new one started 5 s later. Times are counted from the new worker's "Working" line; the runs held are those \`running\` at the kill. Leases of 15 s, checked every 5 s (docs/queue.md).`,
  ]
  const report = { name: 'workflows', results, notes }
  // Partial or profiled runs are not the published figures.
  if (DRIVERS.length === 2 && !PROFILE_DIR) writeDocs(rows, notes, recovery, upserts, peer)
  return report
}

const HISTORY = '## Earlier measurements'

function writeDocs(
  rows: Awaited<ReturnType<typeof measure>>[],
  notes: string[],
  recovery: Awaited<ReturnType<typeof measureRecovery>> | null,
  upserts: number,
  peer: ReturnType<typeof measurePeer>
) {
  const dir = join(ROOT, 'docs/benchmarks')
  mkdirSync(dir, { recursive: true })
  const lines = [
    '# Benchmark: workflow executions',
    '',
    `Measured by \`npm run bench -- workflows\` on ${new Date().toISOString().slice(0, 10)}, ${process.platform}/${process.arch}, Node ${process.version}, 2 cores shared with the load generator.`,
    '',
    '| driver | executions/s | x n8n (same run) | per PG upsert/s | p50 | p95 | p99 | executions | errors | wrong answers | runs not recorded | load avg before / after |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.driver} | ${r.executionsPerSecond} | ${peer ? (r.executionsPerSecond / peer.perSecond).toFixed(1) : ''} | ${(r.executionsPerSecond / upserts).toFixed(3)} | ${r.p50} ms | ${r.p95} ms | ${r.p99} ms | ${r.executions} | ${r.errors} | ${r.wrongAnswers} | ${r.unrecorded} | ${r.load} |`
    ),
    '',
    `Same run: PostgreSQL ${upserts} single-row upserts/s${peer ? `; n8n 1.123 ${peer.perSecond} executions/s (load average ${peer.load})` : ''}.`,
    '',
    ...(recovery
      ? [
          'Recovery after a worker kill (bullmq):',
          '',
          '| runs held by the killed worker | their runs done after the new worker is up | all runs done after it | since the kill | most running (limit 5) | calls repeated | keys differing from the first attempt | failed runs |',
          '|---|---|---|---|---|---|---|---|',
          `| ${recovery.heldRuns} | ${recovery.heldDoneSeconds} s | ${recovery.allDoneSeconds} s | ${recovery.sinceKillSeconds} s | ${recovery.maxRunning} | ${recovery.repeated} | ${recovery.keyMismatches} | ${recovery.failed} |`,
          '',
        ]
      : []),
    ...notes.map((n) => `- ${n}`),
    '',
  ]
  // What follows HISTORY in the file is kept: earlier figures and what changed between them.
  const file = join(dir, 'workflows.md')
  const before = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const history = before.indexOf(HISTORY)
  if (history >= 0) lines.push(before.slice(history).trimEnd(), '')
  writeFileSync(file, lines.join('\n'))
}

/**
 * n8n running the same webhook -> set -> respond workflow (../shared/peer-bench/n8n.sh,
 * installed on first use), loaded by autocannon with as many connections as our callers;
 * its Req/Sec average.
 */
function findPeerScript() {
  const script =
    process.env.BENCH_PEER_SCRIPT ||
    [join(ROOT, '../shared/peer-bench/n8n.sh'), join(ROOT, '../../shared/peer-bench/n8n.sh')].find(
      existsSync
    )
  if (!script) throw new Error('BENCH_PEER: no peer-bench/n8n.sh found (set BENCH_PEER_SCRIPT)')
  return script
}

function measurePeer(script: string) {
  const loadBefore = loadavg()[0]
  const result = spawnSync('bash', [script, String(CALLERS), String(DURATION_MS / 1000)], {
    encoding: 'utf8',
    env: { ...process.env, N8N_PORT: process.env.BENCH_PEER_PORT || String(PORT + 5) },
  })
  const line = result.stdout.split('\n').find((text) => /Req\/Sec/.test(text))
  // autocannon's table: | Stat | 1% | 2.5% | 50% | 97.5% | Avg | Stdev | Min |
  const cells = line?.split(/[│|]/).map((cell) => cell.trim()) ?? []
  const perSecond = Number(cells[cells.indexOf('Req/Sec') + 5])
  if (!line || !Number.isFinite(perSecond) || perSecond <= 0) {
    // The drivers' figures stand without it: say why, rather than lose them.
    console.error(`[bench] the n8n peer did not report:\n${result.stdout}${result.stderr}`)
    return null
  }
  return {
    perSecond: Math.round(perSecond),
    load: `${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`,
  }
}

/**
 * `npm run bench -- guard` (bench/guard.bench.ts): a few seconds of in-process executions
 * next to the same run's PostgreSQL upsert probe, measured before and after them (a
 * neighbour's burst of work skews both the same). Fails when the ratio falls below half of
 * GUARD_RATIO_AIM (a claim that waits for the workflow's row lock, as before issue 32, does),
 * on any error or wrong answer, or when an answered call's run is not recorded as done.
 */
export async function guard() {
  const token = await prepare()
  const bench = await startBench('in-process', token)
  try {
    const warmUp = await load(bench.url, 10, 2000)
    const upsertsBefore = await measureUpserts(DATABASE_URL, 2000)
    const result = await load(bench.url, CALLERS, 5000)
    const upsertsAfter = await measureUpserts(DATABASE_URL, 2000)
    const upserts = Math.round((upsertsBefore + upsertsAfter) / 2)
    const perSecond = Math.round(result.latencies.length / result.seconds)
    const ratio = Number((perSecond / upserts).toFixed(3))
    const answered = warmUp.latencies.length + result.latencies.length
    const unrecorded = answered - (await runsRecorded(bench.id, answered))
    const failures = result.errors + result.wrongAnswers + warmUp.errors + warmUp.wrongAnswers
    return [
      {
        metric: 'workflows: in-process executions/s per PostgreSQL upsert/s',
        value: perSecond,
        reference: upserts,
        ratio,
        threshold: GUARD_RATIO_AIM / 2,
        ok: ratio >= GUARD_RATIO_AIM / 2,
        detail: `load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}; ${CALLERS} callers, 5 s`,
      },
      {
        metric: 'workflows: errors and wrong answers',
        value: failures,
        threshold: 0,
        ok: failures === 0,
      },
      {
        metric: 'workflows: answered calls without their run recorded as done',
        value: unrecorded,
        threshold: 0,
        ok: unrecorded === 0,
      },
    ]
  } finally {
    await bench.stop()
  }
}
