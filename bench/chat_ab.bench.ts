/*
| npm run bench -- chat_ab   (BENCH_BASE_ROOT=<checkout of the reference commit>)
| Two builds served side by side, each by one web process on its own PostgreSQL database,
| and driven by one load generator that sends each visitor's chats to them in turn: both
| see the same machine at the same moments. On a 2-core machine shared with other work,
| runs of one build after the other differed by more than the changes being measured (the
| load average moved from 5 to 30 between them); side by side, what the neighbours take is
| taken from both. It reports, per build and per window, the server's CPU per turn (the web
| process, from /proc) and PostgreSQL's (the backends connected to that build's database).
|
| B is this checkout (BENCH_ROOT), A is BENCH_BASE_ROOT (e.g. `git worktree add <dir> main`
| with a node_modules link); each is built as `npm start` builds it when its build is older
| than its sources (BENCH_BUILD as for `chat`). BENCH_PORT + 1 and + 2 are their ports, and
| BENCH_DATABASE_URL's database with `_a` and `_b` appended their databases.
| BENCH_AB_VISITORS (40), BENCH_AB_WARMUP_MS (20 s), BENCH_AB_WINDOWS (5) of
| BENCH_AB_WINDOW_MS (20 s). BENCH_NODE_ARGS: more flags for both servers.
*/
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { copyFileSync, readFileSync, readdirSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import knex, { type Knex } from 'knex'
import { buildLikeStart } from './chat.bench.js'
import { benchBot } from './chat_bot.js'
import { stop } from './processes.js'
import type { BenchReport } from './run.ts'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile } from '../bin/prepare.js'

const PORT = Number(process.env.BENCH_PORT) || 3360
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://root@127.0.0.1:5432/bench'
const VISITORS = Number(process.env.BENCH_AB_VISITORS) || 40
const WARMUP_MS = Number(process.env.BENCH_AB_WARMUP_MS) || 20_000
const WINDOWS = Number(process.env.BENCH_AB_WINDOWS) || 5
const WINDOW_MS = Number(process.env.BENCH_AB_WINDOW_MS) || 20_000
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
const TURNS = 10

interface Build {
  name: 'A' | 'B'
  root: string
  port: number
  databaseUrl: string
}

interface Served extends Build {
  server: ChildProcess
  client: Knex
  publicId: string
}

function builds(base: string): Build[] {
  const url = (suffix: string) => {
    const parsed = new URL(DATABASE_URL)
    parsed.pathname = `${parsed.pathname}_${suffix}`
    return parsed.toString()
  }
  return [
    { name: 'A', root: base, port: PORT + 1, databaseUrl: url('a') },
    {
      name: 'B',
      root: process.env.BENCH_ROOT || join(import.meta.dirname, '..'),
      port: PORT + 2,
      databaseUrl: url('b'),
    },
  ]
}

function env(build: Build) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(build.port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${build.port}`,
    DB_CONNECTION: 'pg',
    DATABASE_URL: build.databaseUrl,
    LOG_LEVEL: 'warn',
    SMTP_HOST: '',
    // One process each: its CPU is the build's, with nothing shared between the two.
    WEB_CONCURRENCY: '1',
    QUEUE_DRIVER: 'in-process',
    QUEUE_PREFIX: `bench-chat-ab-${build.port}`,
  }
}

function ace(build: Build, args: string[]) {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', 'build/ace.js', ...args], {
    cwd: build.root,
    env: env(build),
    encoding: 'utf8',
  })
  if (result.status !== 0)
    throw new Error(`ace ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`)
  return result.stdout
}

/** User plus system CPU of a process, in ms. */
function cpuMs(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

/** A process and its children (the server's worker threads are its own; forks are not). */
function treeCpuMs(pid: number) {
  let total = cpuMs(pid)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        total += cpuMs(Number(entry))
    } catch {}
  }
  return total
}

const agent = new Agent({ keepAlive: true, maxSockets: 1000 })

function post(port: number, path: string, body: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          try {
            const json = JSON.parse(Buffer.concat(chunks).toString())
            resolve({ status: res.statusCode ?? 0, json })
          } catch (error) {
            reject(error)
          }
        })
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function serve(build: Build): Promise<Served> {
  const name = new URL(build.databaseUrl).pathname.slice(1)
  spawnSync('psql', [
    ...['-h', '127.0.0.1', '-U', 'root', '-d', 'postgres', '-c', `CREATE DATABASE "${name}"`],
  ])
  buildLikeStart(build.root)
  ensureEnvFile(build.root)
  copyFileSync(join(build.root, '.env'), join(build.root, 'build/.env'))
  ace(build, ['migration:fresh', '--force'])
  ace(build, ['db:seed'])
  const email = `bench-ab-${Date.now()}@example.com`
  const token = ace(build, ['user:token', email, '--name', 'bench']).trim().split('\n').at(-1)!
  const server = spawn(
    process.execPath,
    ['--no-node-snapshot', ...NODE_ARGS, 'build/bin/server.js'],
    { cwd: build.root, env: env(build), stdio: ['ignore', 'ignore', 'inherit'] }
  )
  const client = knex({ client: 'pg', connection: build.databaseUrl, pool: { min: 1, max: 1 } })
  const base = `http://127.0.0.1:${build.port}`
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`server ${build.name} exited`)
    try {
      if ((await fetch(`${base}/health`)).ok) break
    } catch {}
    if (i >= 1200) throw new Error(`server ${build.name} did not answer /health in 2 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await client.raw(
    "UPDATE users SET plan = 'UNLIMITED', plan_ends_at = NOW() + interval '30 days' WHERE email = ?",
    [email]
  )
  const headers = { 'authorization': `Bearer ${token.trim()}`, 'content-type': 'application/json' }
  const me = await (await fetch(`${base}/api/v1/workspaces`, { headers })).json()
  const created = await fetch(`${base}/api/v1/bots`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ workspaceId: me.workspaces[0].id, bot: benchBot() }),
  })
  if (!created.ok) throw new Error(`could not create the bot: ${await created.text()}`)
  const botId = (await created.json()).bot.id
  const published = await fetch(`${base}/api/v1/bots/${botId}/publish`, {
    method: 'POST',
    headers,
  })
  if (!published.ok) throw new Error(`could not publish: ${await published.text()}`)
  const publicId = (await (await fetch(`${base}/api/v1/bots/${botId}`, { headers })).json()).bot
    .publicId
  return { ...build, server, client, publicId }
}

async function backendPids(served: Served) {
  const { rows } = await served.client.raw(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()'
  )
  return rows.map((row: { pid: number }) => Number(row.pid)) as number[]
}

/** Each visitor runs whole chats, one on A, the next on B: both get the same load. */
async function drive(served: Served[], durationMs: number) {
  const until = Date.now() + durationMs
  const turns = new Map(served.map((s) => [s.name, 0]))
  const errors = new Map(served.map((s) => [s.name, 0]))
  const count = (map: Map<string, number>, name: string) => map.set(name, map.get(name)! + 1)
  await Promise.all(
    Array.from({ length: VISITORS }, async (_, visitor) => {
      for (let chat = visitor; Date.now() < until; chat++) {
        const build = served[chat % served.length]
        const startPath = `/api/v1/typebots/${build.publicId}/startChat`
        const start = await post(build.port, startPath, '{}').catch(() => null)
        if (!start || start.status !== 200 || !start.json.sessionId) {
          count(errors, build.name)
          continue
        }
        count(turns, build.name)
        const path = `/api/v1/sessions/${start.json.sessionId}/continueChat`
        for (let turn = 0; turn < TURNS && Date.now() < until; turn++) {
          const body = `{"message":"${Math.floor(Math.random() * 100)}"}`
          const reply = await post(build.port, path, body).catch(() => null)
          if (!reply || reply.status !== 200 || !reply.json.messages) {
            count(errors, build.name)
            break
          }
          count(turns, build.name)
        }
      }
    })
  )
  return { turns, errors }
}

export async function run(): Promise<BenchReport> {
  const name = 'chat, two builds side by side'
  const base = process.env.BENCH_BASE_ROOT
  // Among all benchmarks (`npm run bench`), it has nothing to compare without a reference.
  if (!base) return { name, results: [], notes: ['Not run: set BENCH_BASE_ROOT (build A).'] }
  const served: Served[] = []
  try {
    for (const build of builds(base)) served.push(await serve(build))
    await drive(served, WARMUP_MS)
    const results: BenchReport['results'] = []
    const notes: string[] = []
    const sums = new Map(served.map((s) => [s.name, { server: 0, postgres: 0, turns: 0 }]))
    let errors = 0
    for (let window = 1; window <= WINDOWS; window++) {
      const pids = new Map<string, number[]>()
      for (const s of served) pids.set(s.name, await backendPids(s))
      const postgresCpu = (s: Served) => pids.get(s.name)!.reduce((sum, pid) => sum + cpuMs(pid), 0)
      const before = new Map(
        served.map((s) => [s.name, { server: treeCpuMs(s.server.pid!), postgres: postgresCpu(s) }])
      )
      const loadBefore = loadavg()[0]
      const tally = await drive(served, WINDOW_MS)
      const parts = [
        `window ${window}, load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
      ]
      for (const s of served) {
        const turns = tally.turns.get(s.name)!
        const server = treeCpuMs(s.server.pid!) - before.get(s.name)!.server
        const postgres = postgresCpu(s) - before.get(s.name)!.postgres
        const sum = sums.get(s.name)!
        sum.server += server
        sum.postgres += postgres
        sum.turns += turns
        errors += tally.errors.get(s.name)!
        parts.push(
          `${s.name}: ${turns} turns, server ${(server / turns).toFixed(3)} ms/turn, PostgreSQL ${(postgres / turns).toFixed(3)} ms/turn`
        )
      }
      notes.push(parts.join('; '))
    }
    for (const s of served) {
      const sum = sums.get(s.name)!
      results.push(
        {
          metric: `${s.name}: server CPU per turn (one web process)`,
          value: Number((sum.server / sum.turns).toFixed(3)),
          unit: 'ms',
        },
        {
          metric: `${s.name}: PostgreSQL CPU per turn (its database's backends)`,
          value: Number((sum.postgres / sum.turns).toFixed(3)),
          unit: 'ms',
        },
        { metric: `${s.name}: turns measured`, value: sum.turns, unit: 'turns' }
      )
    }
    const [a, b] = served.map((s) => sums.get(s.name)!)
    results.push(
      {
        metric: 'B / A, server CPU per turn',
        value: Number((b.server / b.turns / (a.server / a.turns)).toFixed(3)),
        unit: 'ratio',
      },
      {
        metric: 'B / A, PostgreSQL CPU per turn',
        value: Number((b.postgres / b.turns / (a.postgres / a.turns)).toFixed(3)),
        unit: 'ratio',
      },
      { metric: 'errors', value: errors, unit: 'requests', aim: '0', met: errors === 0 }
    )
    notes.unshift(
      `A: ${served[0].root}; B: ${served[1].root}. ${VISITORS} visitors in a closed loop sending their chats to A and B in turn, ${WARMUP_MS / 1000} s of warm-up, then ${WINDOWS} windows of ${WINDOW_MS / 1000} s.`
    )
    return { name, results, notes }
  } finally {
    agent.destroy()
    for (const s of served) {
      await s.client.destroy().catch(() => {})
      await stop(s.server)
    }
  }
}
