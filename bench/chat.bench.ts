/*
| npm run bench -- chat [--soak]
| The chat API under load: the production build on PostgreSQL, 100 concurrent visitors
| (200 with --soak) each running a 10-turn bot of bubbles, inputs, conditions and set
| variables again and again. Reports turns/s and latency percentiles, the database writes
| per turn, and, measured in the same run, how many single-row upserts/s PostgreSQL does
| on this machine. Aim: >= 1,000 turns/s, p99 < 50 ms, <= 3 upserts per turn.
| --soak: 200 visitors for 60 s; aim 0 errors and 0 answers lost.
*/
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import knex, { type Knex } from 'knex'
import type { BenchReport } from './run.ts'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile } from '../bin/prepare.js'

const ROOT = join(import.meta.dirname, '..')
const PORT = 3360
const BASE = `http://127.0.0.1:${PORT}`
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://root@127.0.0.1:5432/bench'
const SOAK = process.argv.includes('--soak')
const VISITORS = SOAK ? 200 : 100
const DURATION_MS = SOAK ? 60_000 : 20_000
const TURNS = 10

function env() {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    APP_URL: BASE,
    DB_CONNECTION: 'pg',
    DATABASE_URL,
    LOG_LEVEL: 'warn',
    SMTP_HOST: '',
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

/** Ten rounds of: a bubble with a variable, a number input, a condition, a set variable. */
export function benchBot() {
  const groups: any[] = []
  const edges: any[] = []
  const variables: any[] = [{ id: 'vtotal', name: 'Total' }]
  for (let turn = 0; turn < TURNS; turn++) {
    variables.push({ id: `va${turn}`, name: `Answer ${turn}` })
    const condition = {
      id: `c${turn}`,
      type: 'Condition',
      items: [
        {
          id: `ci${turn}`,
          content: {
            comparisons: [
              { variableId: `va${turn}`, comparisonOperator: 'Greater than', value: '50' },
            ],
            logicalOperator: 'AND',
          },
        },
      ],
    }
    groups.push({
      id: `g${turn}`,
      title: `Round ${turn + 1}`,
      graphCoordinates: { x: turn * 400, y: 0 },
      blocks: [
        {
          id: `t${turn}`,
          type: 'text',
          content: {
            richText: [
              { type: 'p', children: [{ text: `Question ${turn + 1}, total so far {{Total}}` }] },
            ],
          },
        },
        {
          id: `n${turn}`,
          type: 'number input',
          options: { variableId: `va${turn}`, min: 0, max: 100 },
        },
        condition,
        {
          id: `s${turn}`,
          type: 'Set variable',
          options: {
            variableId: 'vtotal',
            type: 'Custom',
            expressionToEvaluate: '{{Answer ' + turn + '}}',
          },
        },
      ],
    })
  }
  for (let turn = 0; turn < TURNS - 1; turn++) {
    const last = groups[turn].blocks.at(-1)
    last.outgoingEdgeId = `e${turn}`
    edges.push({ id: `e${turn}`, from: { blockId: last.id }, to: { groupId: `g${turn + 1}` } })
  }
  groups.push({
    id: 'gend',
    title: 'End',
    graphCoordinates: { x: 0, y: 400 },
    blocks: [
      {
        id: 'tend',
        type: 'text',
        content: { richText: [{ type: 'p', children: [{ text: 'Thanks!' }] }] },
      },
    ],
  })
  const lastRound = groups[TURNS - 1].blocks.at(-1)
  lastRound.outgoingEdgeId = 'eend'
  edges.push({ id: 'eend', from: { blockId: lastRound.id }, to: { groupId: 'gend' } })
  edges.push({ id: 'estart', from: { eventId: 'start' }, to: { groupId: 'g0' } })
  return {
    version: '6',
    name: 'Chat benchmark',
    groups,
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: -300, y: 0 }, outgoingEdgeId: 'estart' },
    ],
    edges,
    variables,
    theme: {},
    settings: {},
  }
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

async function post(path: string, body: unknown) {
  const started = performance.now()
  const response = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = await response.json()
  return { ok: response.ok, json, ms: performance.now() - started }
}

/** Single-row upserts/s PostgreSQL sustains here (16 connections, 5 s). */
async function measureUpserts(): Promise<number> {
  const pool = knex({ client: 'pg', connection: DATABASE_URL, pool: { min: 16, max: 16 } })
  await pool.raw(
    'CREATE TABLE IF NOT EXISTS bench_upserts (id text PRIMARY KEY, n integer, payload text)'
  )
  let count = 0
  const until = Date.now() + 5000
  await Promise.all(
    Array.from({ length: 16 }, async (_, worker) => {
      let i = 0
      while (Date.now() < until) {
        await pool.raw(
          'INSERT INTO bench_upserts (id, n, payload) VALUES (?, 1, ?) ON CONFLICT (id) DO UPDATE SET n = bench_upserts.n + 1, payload = EXCLUDED.payload',
          [`w${worker}-${i++ % 1000}`, 'x'.repeat(200)]
        )
        count++
      }
    })
  )
  await pool.raw('DROP TABLE bench_upserts')
  await pool.destroy()
  return Math.round(count / 5)
}

async function writesSoFar(client: Knex) {
  const { rows } = await client.raw(
    "SELECT COALESCE(SUM(n_tup_ins + n_tup_upd), 0)::bigint AS writes FROM pg_stat_user_tables WHERE relname IN ('chat_sessions', 'results', 'answers', 'result_logs', 'chat_usage')"
  )
  return Number(rows[0].writes)
}

export async function run(): Promise<BenchReport> {
  spawnSync(
    'psql',
    ['-h', '127.0.0.1', '-U', 'root', '-d', 'postgres', '-c', 'CREATE DATABASE bench'],
    {
      encoding: 'utf8',
    }
  )
  const built = spawnSync(process.execPath, ['ace.js', 'build', '--ignore-ts-errors'], {
    cwd: ROOT,
    stdio: 'inherit',
  })
  if (built.status !== 0) throw new Error('build failed')
  ensureEnvFile(ROOT)
  copyFileSync(join(ROOT, '.env'), join(ROOT, 'build/.env'))
  ace(['migration:fresh', '--force'])
  ace(['db:seed'])
  const email = `bench-${Date.now()}@example.com`
  const token = ace(['user:token', email, '--name', 'bench']).trim().split('\n').at(-1)!.trim()

  const server = spawn(process.execPath, ['--no-node-snapshot', 'build/bin/server.js'], {
    cwd: ROOT,
    env: env(),
    stdio: 'ignore',
  })
  const stats = knex({ client: 'pg', connection: DATABASE_URL, pool: { min: 1, max: 2 } })
  try {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${BASE}/health`)).ok) break
      } catch {}
      await new Promise((r) => setTimeout(r, 100))
    }
    const auth = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
    const me = await (await fetch(`${BASE}/api/v1/workspaces`, { headers: auth })).json()
    const workspaceId = me.workspaces[0].id
    // The benchmark's owner gets the unlimited plan so the monthly chat limit stays out of the way.
    await stats.raw(
      "UPDATE users SET plan = 'UNLIMITED', plan_ends_at = NOW() + interval '30 days' WHERE email = ?",
      [email]
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
    const publicId = (await (await fetch(`${BASE}/api/v1/bots/${botId}`, { headers: auth })).json())
      .bot.publicId

    // Warm-up: a few conversations so caches and JIT are in their steady state.
    for (let i = 0; i < 20; i++) {
      const start = await post(`/api/v1/typebots/${publicId}/startChat`, {})
      for (let t = 0; t < TURNS; t++)
        await post(`/api/v1/sessions/${start.json.sessionId}/continueChat`, { message: '60' })
    }

    const upsertsPerSecond = await measureUpserts()
    const writesBefore = await writesSoFar(stats)

    const latencies: number[] = []
    let errors = 0
    let turns = 0
    const sent = new Map<string, number>()
    const until = Date.now() + DURATION_MS
    const startedAt = performance.now()
    await Promise.all(
      Array.from({ length: VISITORS }, async () => {
        while (Date.now() < until) {
          const start = await post(`/api/v1/typebots/${publicId}/startChat`, {}).catch(() => null)
          if (!start?.ok) {
            errors++
            continue
          }
          latencies.push(start.ms)
          turns++
          const { sessionId, resultId } = start.json
          for (let t = 0; t < TURNS && Date.now() < until; t++) {
            const answer = String(Math.floor(Math.random() * 100))
            const reply = await post(`/api/v1/sessions/${sessionId}/continueChat`, {
              message: answer,
            }).catch(() => null)
            if (!reply?.ok || !reply.json.messages) {
              errors++
              break
            }
            latencies.push(reply.ms)
            turns++
            sent.set(resultId, (sent.get(resultId) ?? 0) + 1)
          }
        }
      })
    )
    const seconds = (performance.now() - startedAt) / 1000
    const writesAfter = await writesSoFar(stats)
    // pg_stat counters are flushed asynchronously: give them a moment.
    await new Promise((r) => setTimeout(r, 1000))
    const writesFlushed = Math.max(writesAfter, await writesSoFar(stats))

    // Every answered turn must be in the results.
    const { rows } = await stats.raw(
      'SELECT result_id, COUNT(*)::int AS answers FROM answers WHERE result_id = ANY(?) GROUP BY result_id',
      [[...sent.keys()]]
    )
    const stored = new Map<string, number>(
      rows.map((row: any) => [row.result_id, Number(row.answers)])
    )
    let lost = 0
    for (const [resultId, count] of sent) lost += Math.max(0, count - (stored.get(resultId) ?? 0))

    latencies.sort((a, b) => a - b)
    const turnsPerSecond = Math.round(turns / seconds)
    const p50 = Number(percentile(latencies, 50).toFixed(1))
    const p95 = Number(percentile(latencies, 95).toFixed(1))
    const p99 = Number(percentile(latencies, 99).toFixed(1))
    const writesPerTurn = Number(((writesFlushed - writesBefore) / Math.max(turns, 1)).toFixed(2))
    return {
      name: SOAK ? 'chat (soak)' : 'chat',
      results: [
        {
          metric: 'turns per second',
          value: turnsPerSecond,
          unit: 'turns/s',
          aim: '>= 1000',
          met: turnsPerSecond >= 1000,
        },
        { metric: 'latency p50', value: p50, unit: 'ms' },
        { metric: 'latency p95', value: p95, unit: 'ms' },
        { metric: 'latency p99', value: p99, unit: 'ms', aim: '< 50', met: p99 < 50 },
        {
          metric: 'database writes per turn',
          value: writesPerTurn,
          unit: 'rows',
          aim: '<= 3',
          met: writesPerTurn <= 3,
        },
        {
          metric: 'PostgreSQL single-row upserts (16 connections)',
          value: upsertsPerSecond,
          unit: 'upserts/s',
        },
        { metric: 'errors', value: errors, unit: 'requests', aim: '0', met: errors === 0 },
        { metric: 'answers lost', value: lost, unit: 'answers', aim: '0', met: lost === 0 },
        { metric: 'turns', value: turns, unit: 'turns' },
      ],
      notes: [
        `${VISITORS} concurrent visitors for ${DURATION_MS / 1000} s, ${TURNS}-turn bot (text bubble with a variable, number input, condition, set variable per turn); a turn is one startChat or continueChat call.`,
        `Production build, one server process, PostgreSQL on the same 2-core machine as the load generator.`,
        'Writes per turn: inserted plus updated rows of chat_sessions, results, answers, result_logs and chat_usage (pg_stat_user_tables) divided by turns.',
      ],
    }
  } finally {
    await stats.destroy().catch(() => {})
    server.kill('SIGINT')
  }
}
