/*
| npm run bench -- chat [--soak]
| The chat API under load: the production build on PostgreSQL, a 10-turn bot of bubbles,
| inputs, conditions and set variables. Two measurements in one run:
| - closed loop: 100 visitors (200 with --soak) each send their next turn as soon as the
|   previous one is answered (no think time). On a shared 2-core machine this saturates the
|   CPU, so its latencies are mostly time spent queueing behind the other visitors.
| - paced (open loop): turns arrive at a fixed rate (BENCH_RATE, 1,000/s) whatever the
|   answers; each latency counts from the turn's scheduled time, so a slow server cannot
|   hide its backlog by slowing the load generator down (no coordinated omission). It is
|   measured after a 2 s lead-in at the same rate, once the connections are open.
| Both report turns/s and p50/p95/p99; the run also reports the database writes per turn,
| the errors, the answers lost, how many single-row upserts/s PostgreSQL does on this
| machine and the machine's load average (other work on a shared machine skews figures).
| Aim: >= 1,000 turns/s, p99 < 50 ms, <= 3 upserts per turn; --soak: 200 visitors x 60 s,
| 0 errors and 0 answers lost.
|
| BENCH_WORKERS: server processes (WEB_CONCURRENCY, default 2; one core is left to the load
| generator and PostgreSQL in any case). BENCH_PORT, BENCH_DATABASE_URL, BENCH_REDIS_URL:
| engineers sharing a machine each bench on their own. BENCH_PROFILE=<dir>: the server
| writes CPU profiles there. The app is built as `npm start` builds it when its build is
| older than the sources (BENCH_BUILD=1: always; BENCH_BUILD=0: never). BENCH_ROOT: the
| checkout to build and measure (default this one). BENCH_NODE_ARGS: more flags for the
| server processes (e.g. --trace-gc); BENCH_SERVER_LOG=<file>: keep the server's output.
| BENCH_TRACE=<file>: where the paced run's slow turns spent their time (see trace()).
| BENCH_PLAN: the bot owner's plan (default UNLIMITED; a plan with a chat limit, e.g.
| ENTERPRIZE, measures the turns that take their place under it first).
| --sqlite: the embedded set-up instead (SQLite in <root>/tmp/bench-chat.sqlite3, one server
| process, the in-process queue); its aim is 1,000 turns/s in the closed loop. PostgreSQL's
| upserts are still measured as the same-run reference of the machine's speed.
*/
import { spawn, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import knex, { type Knex } from 'knex'
import { measureUpserts } from './upserts.js'
import type { BenchReport } from './run.ts'
import { stop } from './processes.js'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile, sourceStamp } from '../bin/prepare.js'
import {
  PORT,
  SQLITE,
  TRACE_FILE,
  TURNS,
  type Tally,
  agent,
  closedLoop,
  load,
  paced,
  percentile,
  renewSockets,
  sleep,
  traceRows,
  writesSoFar,
  refuseEarlyEnds,
} from './chat_load.js'
import { benchBot } from './chat_bot.js'

// BENCH_ROOT: another checkout to measure (a worktree of an older commit, to compare).
const ROOT = process.env.BENCH_ROOT || join(import.meta.dirname, '..')
const BASE = `http://127.0.0.1:${PORT}`
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://root@127.0.0.1:5432/bench'
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379'
const SOAK = process.argv.includes('--soak')
const SQLITE_FILE = join(ROOT, 'tmp', 'bench-chat.sqlite3')
const VISITORS = SOAK ? 200 : 100
const DURATION_MS = SOAK ? 60_000 : 20_000
const PACED_MS = 20_000
/** Sent before the paced measurement at its rate: new connections are not its steady state. */
const PACED_LEAD_IN_MS = 2000
const RATE = Number(process.env.BENCH_RATE) || 1000
const WORKERS = SQLITE ? 1 : Math.max(1, Number(process.env.BENCH_WORKERS) || 2)
const PROFILE_DIR = process.env.BENCH_PROFILE
const SERVER_LOG = process.env.BENCH_SERVER_LOG
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)

function env() {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    APP_URL: BASE,
    ...(SQLITE
      ? { DB_CONNECTION: 'sqlite', SQLITE_PATH: SQLITE_FILE }
      : { DB_CONNECTION: 'pg', DATABASE_URL }),
    LOG_LEVEL: 'warn',
    SMTP_HOST: '',
    // Several web processes need a shared queue (the in-process one lives in one process).
    WEB_CONCURRENCY: String(WORKERS),
    QUEUE_DRIVER: WORKERS > 1 ? 'bullmq' : 'in-process',
    REDIS_URL,
    QUEUE_PREFIX: `bench-chat-${PORT}`,
  }
}

function ace(args: string[]) {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', 'build/ace.js', ...args], {
    cwd: ROOT,
    env: env(),
    encoding: 'utf8',
  })
  if (result.status !== 0)
    throw new Error(`ace ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`)
  return result.stdout
}

const STATS_IDLE_FLUSH_MS = 11_000
/**
 * The closed loop's turns/s against the same run's PostgreSQL upserts/s: a figure that
 * holds on a busy machine, where both slow down together (issue 32: 0.20 before the plan
 * checks per block, 0.11 with them).
 */
const RATIO_AIM = 0.3

/** Answered turns whose answers are not in the database. */
async function answersLost(client: Knex, sent: Map<string, number>) {
  if (sent.size === 0) return 0
  let rows: { result_id: string; answers: number }[] = []
  if (SQLITE) {
    const ids = [...sent.keys()]
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500)
      rows.push(
        ...(await client.raw(
          `SELECT result_id, COUNT(*) AS answers FROM answers WHERE result_id IN (${chunk.map(() => '?').join(', ')}) GROUP BY result_id`,
          chunk
        ))
      )
    }
  } else {
    rows = (
      await client.raw(
        'SELECT result_id, COUNT(*)::int AS answers FROM answers WHERE result_id = ANY(?) GROUP BY result_id',
        [[...sent.keys()]]
      )
    ).rows
  }
  const stored = new Map<string, number>(
    rows.map((row: any) => [row.result_id, Number(row.answers)])
  )
  let lost = 0
  for (const [resultId, count] of sent) lost += Math.max(0, count - (stored.get(resultId) ?? 0))
  return lost
}

/**
 * CPU time (user + system, ms) the server has used: its process and, in cluster mode, its
 * web processes. Unlike turns/s, CPU per turn hardly moves with what else runs on a shared
 * machine, so it compares code versions measured minutes apart.
 */
function serverCpuMs(pid: number): number {
  const tick = 10 // ms per clock tick (USER_HZ = 100 on Linux)
  let total = 0
  const pids = [pid]
  while (pids.length > 0) {
    const current = pids.pop()!
    try {
      const stat = readFileSync(`/proc/${current}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      total += (Number(fields[11]) + Number(fields[12])) * tick
      const children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8')
      pids.push(...children.split(' ').filter(Boolean).map(Number))
    } catch {
      // The process ended meanwhile, or no /proc (not Linux): nothing to add.
    }
  }
  return total
}

/**
 * CPU time (ms) of every PostgreSQL process on the machine: its share of a turn, next to
 * the server's (other databases' work counts too, so read it on a quiet machine).
 */
function postgresCpuMs(): number {
  let total = 0
  let entries: string[] = []
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return 0
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (!stat.includes('(postgres)')) continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      total += (Number(fields[11]) + Number(fields[12])) * 10
    } catch {
      // Ended meanwhile.
    }
  }
  return total
}

/** Builds the app as `npm start` does, unless the build is of the current sources. */
export function buildLikeStart(root = ROOT) {
  const stampFile = join(root, 'build', '.source-stamp')
  const stamp = sourceStamp(root)
  const fresh =
    existsSync(join(root, 'build/bin/server.js')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp
  // BENCH_BUILD=0 takes the build as it is, BENCH_BUILD=1 builds whatever its stamp says.
  if (process.env.BENCH_BUILD === '0' && existsSync(join(root, 'build/bin/server.js'))) return
  if (fresh && process.env.BENCH_BUILD !== '1') return
  // The very command `npm start` builds with (bin/start.js): what is measured is what it
  // serves, not a variant built with other flags; its stamp lets `npm start` reuse it.
  const built = spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (built.status !== 0) throw new Error('build failed')
  writeFileSync(stampFile, stamp)
}

/**
 * A fresh database, the production build serving it and the bench bot published there:
 * what both the full run and the guard measure.
 */
async function setUp() {
  // The PostgreSQL database is the upsert probe's in the SQLite set-up.
  const dbName = new URL(DATABASE_URL).pathname.slice(1)
  spawnSync(
    'psql',
    ['-h', '127.0.0.1', '-U', 'root', '-d', 'postgres', '-c', `CREATE DATABASE "${dbName}"`],
    { encoding: 'utf8' }
  )
  if (SQLITE) {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true })
    for (const suffix of ['', '-wal', '-shm']) rmSync(SQLITE_FILE + suffix, { force: true })
  }
  buildLikeStart()
  ensureEnvFile(ROOT)
  copyFileSync(join(ROOT, '.env'), join(ROOT, 'build/.env'))
  ace(['migration:fresh', '--force'])
  ace(['db:seed'])
  const email = `bench-${Date.now()}@example.com`
  const token = ace(['user:token', email, '--name', 'bench']).trim().split('\n').at(-1)!.trim()

  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []
  const server = spawn(
    process.execPath,
    // BENCH_NODE_ARGS: more flags for the server processes (e.g. --trace-gc).
    ['--no-node-snapshot', ...profile, ...NODE_ARGS, 'build/bin/server.js'],
    {
      cwd: ROOT,
      env: env(),
      // BENCH_SERVER_LOG=<file>: the server's output (e.g. with BENCH_NODE_ARGS=--trace-gc).
      stdio: ['ignore', SERVER_LOG ? openSync(SERVER_LOG, 'w') : 'ignore', 'inherit'],
    }
  )
  const stats = SQLITE
    ? knex({
        client: 'better-sqlite3',
        connection: { filename: SQLITE_FILE },
        useNullAsDefault: true,
        pool: { min: 1, max: 1 },
      })
    : knex({ client: 'pg', connection: DATABASE_URL, pool: { min: 1, max: 2 } })
  const tearDown = async () => {
    agent.destroy()
    await stats.destroy().catch(() => {})
    await stop(server)
  }
  try {
    // Up to 2 minutes: on a machine shared with builds and browsers, a start takes long.
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`)
      try {
        if ((await fetch(`${BASE}/health`)).ok) break
      } catch {}
      if (i >= 1200) throw new Error('the server did not answer /health within 2 minutes')
      await new Promise((r) => setTimeout(r, 100))
    }
    const auth = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
    const me = await (await fetch(`${BASE}/api/v1/workspaces`, { headers: auth })).json()
    const workspaceId = me.workspaces[0].id
    // The benchmark's owner gets the unlimited plan so the monthly chat limit stays out of the
    // way, unless BENCH_PLAN names another.
    await stats.raw(
      SQLITE
        ? // No end date: a plan that never expires.
          'UPDATE users SET plan = ?, plan_ends_at = NULL WHERE email = ?'
        : "UPDATE users SET plan = ?, plan_ends_at = NOW() + interval '30 days' WHERE email = ?",
      [process.env.BENCH_PLAN || 'UNLIMITED', email]
    )
    const created = await fetch(`${BASE}/api/v1/bots`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ workspaceId, bot: benchBot() }),
    })
    if (!created.ok) throw new Error(`could not create the bot: ${await created.text()}`)
    const botId = (await created.json()).bot.id
    const published = await fetch(`${BASE}/api/v1/bots/${botId}/publish`, {
      method: 'POST',
      headers: auth,
    })
    if (!published.ok) throw new Error(`could not publish: ${await published.text()}`)
    const publicId: string = (
      await (await fetch(`${BASE}/api/v1/bots/${botId}`, { headers: auth })).json()
    ).bot.publicId
    return { server, stats, publicId, tearDown }
  } catch (error) {
    await tearDown()
    throw error
  }
}

export async function run(): Promise<BenchReport> {
  const { server, stats, publicId, tearDown } = await setUp()
  try {
    // Warm-up at full concurrency: every web process gets its JIT-compiled code, its pool of
    // PostgreSQL connections and its caches before anything is measured (with a short,
    // light warm-up the first seconds of the closed loop ran at a third of the later rate).
    refuseEarlyEnds('warm-up', await closedLoop(publicId, VISITORS, 8000))

    const upsertsPerSecond = await measureUpserts(DATABASE_URL)
    // PostgreSQL counts a connection's writes in pg_stat_user_tables when it commits, at most
    // once a second, and only after 10 s once the connection is idle: wait for the counts of
    // the warm-up (and, below, of the measurement) to be in before reading them.
    await sleep(STATS_IDLE_FLUSH_MS - 5000)
    const loadBefore = load()
    const writesBefore = await writesSoFar(stats)
    renewSockets()
    const cpuBefore = serverCpuMs(server.pid!)
    const postgresBefore = postgresCpuMs()
    const generatorBefore = process.cpuUsage()
    const closed = await closedLoop(publicId, VISITORS, DURATION_MS)
    const serverCpuPerTurn = (serverCpuMs(server.pid!) - cpuBefore) / Math.max(closed.turns, 1)
    const postgresCpuPerTurn = (postgresCpuMs() - postgresBefore) / Math.max(closed.turns, 1)
    const generatorUsage = process.cpuUsage(generatorBefore)
    const generatorCpuPerTurn =
      (generatorUsage.user + generatorUsage.system) / 1000 / Math.max(closed.turns, 1)
    await sleep(STATS_IDLE_FLUSH_MS)
    const writesAfter = await writesSoFar(stats)
    const loadAfterClosed = load()
    renewSockets()
    const pacedTally = SOAK ? null : await paced(publicId, RATE, PACED_MS, PACED_LEAD_IN_MS)
    const loadAfterPaced = load()
    if (TRACE_FILE) writeFileSync(TRACE_FILE, traceRows.join('\n'))

    refuseEarlyEnds('closed loop', closed)
    if (pacedTally) refuseEarlyEnds('paced run', pacedTally)
    const lost =
      (await answersLost(stats, closed.sent)) +
      (pacedTally ? await answersLost(stats, pacedTally.sent) : 0)
    const errors = closed.errors + (pacedTally?.errors ?? 0)
    const closedRatio = Number((closed.turns / closed.seconds / upsertsPerSecond).toFixed(3))
    const writesPerTurn = Number(
      ((writesAfter - writesBefore) / Math.max(closed.turns, 1)).toFixed(2)
    )

    /**
     * The aims a run is held to: the paced run to both. The soak's closed loop only to its
     * rate: 200 visitors with no think time wait 200 / (turns/s) on average (Little's law),
     * 100 ms at 2,000 turns/s, so a p99 aim does not apply to it.
     */
    function figures(label: string, tally: Tally, aims: { rate: boolean; p99: boolean }) {
      tally.latencies.sort((a, b) => a - b)
      const turnsPerSecond = Math.round(tally.turns / tally.seconds)
      const p99 = Number(percentile(tally.latencies, 99).toFixed(1))
      return [
        {
          metric: `${label}: turns per second`,
          value: turnsPerSecond,
          unit: 'turns/s',
          ...(aims.rate ? { aim: '>= 1000', met: turnsPerSecond >= 1000 } : {}),
        },
        {
          metric: `${label}: latency p50`,
          value: Number(percentile(tally.latencies, 50).toFixed(1)),
          unit: 'ms',
        },
        {
          metric: `${label}: latency p95`,
          value: Number(percentile(tally.latencies, 95).toFixed(1)),
          unit: 'ms',
        },
        {
          metric: `${label}: latency p99`,
          value: p99,
          unit: 'ms',
          ...(aims.p99 ? { aim: '< 50', met: p99 < 50 } : {}),
        },
        { metric: `${label}: turns`, value: tally.turns, unit: 'turns' },
      ]
    }

    return {
      name: `chat${SQLITE ? ' (SQLite, embedded)' : ''}${SOAK ? ' (soak)' : ''}`,
      results: [
        // The embedded set-up's aim is its closed loop's rate: 1,000 turns/s.
        ...figures(`closed loop, ${VISITORS} visitors`, closed, {
          rate: SOAK || SQLITE,
          p99: false,
        }),
        ...(pacedTally
          ? figures(`paced, ${RATE} turns/s offered`, pacedTally, { rate: true, p99: true })
          : []),
        {
          metric: 'server CPU per turn (closed loop, all web processes)',
          value: Number(serverCpuPerTurn.toFixed(3)),
          unit: 'ms',
        },
        ...(SQLITE
          ? []
          : [
              {
                metric: 'PostgreSQL CPU per turn (closed loop, all its processes)',
                value: Number(postgresCpuPerTurn.toFixed(3)),
                unit: 'ms',
              },
            ]),
        {
          metric: 'load generator CPU per turn (closed loop)',
          value: Number(generatorCpuPerTurn.toFixed(3)),
          unit: 'ms',
        },
        ...(SQLITE
          ? []
          : [
              {
                metric: 'database writes per turn',
                value: writesPerTurn,
                unit: 'rows',
                aim: '<= 3',
                met: writesPerTurn <= 3,
              },
            ]),
        {
          metric: 'PostgreSQL single-row upserts (16 connections), same-run reference',
          value: upsertsPerSecond,
          unit: 'upserts/s',
        },
        {
          metric: 'closed loop turns/s per PostgreSQL upsert/s',
          value: closedRatio,
          unit: 'ratio',
          // The ratio's aim is PostgreSQL's set-up's; the embedded one aims at 1,000 turns/s.
          ...(SQLITE ? {} : { aim: `>= ${RATIO_AIM}`, met: closedRatio >= RATIO_AIM }),
        },
        { metric: 'errors', value: errors, unit: 'requests', aim: '0', met: errors === 0 },
        { metric: 'answers lost', value: lost, unit: 'answers', aim: '0', met: lost === 0 },
      ],
      notes: [
        `Closed loop: ${VISITORS} concurrent visitors for ${DURATION_MS / 1000} s with no think time; ${SOAK ? 'no paced run in the soak.' : `paced: ${RATE} turns/s offered for ${PACED_MS / 1000} s after a ${PACED_LEAD_IN_MS / 1000} s lead-in at the same rate (open loop, latency from each turn's scheduled time).`}`,
        `${TURNS}-turn bot (text bubble with a variable, number input, condition, set variable per turn); a turn is one startChat or continueChat call.`,
        `Production build, ${WORKERS} server process${WORKERS > 1 ? 'es' : ''} (WEB_CONCURRENCY), ${SQLITE ? 'SQLite (embedded, WAL)' : 'PostgreSQL'} and the load generator on the same 2-core machine.`,
        `Machine load average (1, 5, 15 min): ${loadBefore} before the closed loop, ${loadAfterClosed} after it${pacedTally ? `, ${loadAfterPaced} after the paced run` : ''}.`,
        `Turns answered per second, closed loop: ${Array.from(closed.perSecond, (n) => n ?? 0).join(' ')}${pacedTally ? `; paced: ${Array.from(pacedTally.perSecond, (n) => n ?? 0).join(' ')}` : ''}.`,
        ...(pacedTally
          ? [
              `Slowest answer of each second, paced (ms): ${Array.from(pacedTally.worstPerSecond, (n) => Math.round(n ?? 0)).join(' ')}; the load generator's own latest send (ms late): ${Array.from(pacedTally.sendLagPerSecond, (n) => Math.round(n ?? 0)).join(' ')}.`,
            ]
          : []),
        ...[...closed.failures, ...(pacedTally?.failures ?? [])].map((f) => `Failure: ${f}`),
        'Writes per turn (closed loop): inserted plus updated rows of chat_sessions, results, answers, result_logs and chat_usage (pg_stat_user_tables) divided by turns.',
      ],
    }
  } finally {
    await tearDown()
  }
}

/**
 * The guard's ratio, judged at half of it: what the closed loop reaches on a quiet machine today
 * (0.17 to 0.19 in the full bench, docs/benchmarks/issue-32.md), not the 0.30 aim it has not
 * reached. Half of the aim sat inside the short run's own spread (0.125 to 0.15 at load 3, on
 * this commit and on the one before it), so it failed on noise; half of the measured figure
 * still fails on a regression the size of issue 32's (0.05 without the capability cache).
 */
const GUARD_RATIO = 0.19

/**
 * `npm run bench -- guard`: a short closed loop (100 visitors) next to the same run's
 * PostgreSQL upsert probe. Fails when the ratio falls below half of GUARD_RATIO, when a chat
 * ends early, or on any error or lost answer.
 */
export async function guard() {
  const { stats, publicId, tearDown } = await setUp()
  try {
    refuseEarlyEnds('warm-up', await closedLoop(publicId, VISITORS, 3000))
    // The probe on both sides of the run: a neighbour's burst of work skews both the same.
    const upsertsBefore = await measureUpserts(DATABASE_URL, 2000)
    renewSockets()
    const closed = await closedLoop(publicId, VISITORS, 5000)
    const upsertsAfter = await measureUpserts(DATABASE_URL, 2000)
    const upserts = Math.round((upsertsBefore + upsertsAfter) / 2)
    const turnsPerSecond = Math.round(closed.turns / closed.seconds)
    const ratio = Number((turnsPerSecond / upserts).toFixed(3))
    const lost = await answersLost(stats, closed.sent)
    const detail = `load average ${load()}; ${closed.failures.slice(0, 2).join('; ')}`
    return [
      {
        metric: 'chat: closed loop turns/s per PostgreSQL upsert/s',
        value: turnsPerSecond,
        reference: upserts,
        ratio,
        threshold: GUARD_RATIO / 2,
        ok: ratio >= GUARD_RATIO / 2,
        detail,
      },
      {
        metric: 'chat: chats ended before their last turn',
        value: closed.endedEarly,
        threshold: 0,
        ok: closed.endedEarly === 0,
      },
      {
        metric: 'chat: errors and answers lost',
        value: closed.errors + lost,
        threshold: 0,
        ok: closed.errors + lost === 0,
      },
    ]
  } finally {
    await tearDown()
  }
}
