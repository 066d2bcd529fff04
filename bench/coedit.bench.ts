/*
| npm run bench -- coedit [--editors=10] [--rate=5] [--seconds=20]
| Co-editing (docs/editor.md "Editing together") under load: the build `npm start` serves
| (SQLite, one process: the embedded default), one 500-block bot, 10 simulated editors each
| signed in with a session of their own, listening on the draft's transmit channel as the
| editor does (GET /__transmit/events, then subscribe), and typing one character every
| 1/rate s into a random bubble of their Yjs copy, sent by POST /api/coedit/bots/:id/updates
| as the editor sends it. Measures, for every edit and every other editor, the time from the
| edit to its arrival (p50/p95/p99, aim p95 < 300 ms), the server's CPU (its /proc times over
| the run, in cores) and resident memory at the end, the bytes per edit sent (the POST body)
| and received (the event on the stream, per editor), and that every replica ends equal to
| the draft stored in the database. BENCH_PORT: engineers sharing a machine each bench on
| their own port.
*/
import { spawn } from 'node:child_process'
import { copyFileSync, readFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import knex from 'knex'
import * as Y from 'yjs'
import type { BenchReport } from './run.ts'
import { appBuild } from './app_build.js'
import { stop } from './processes.js'
import { generateBot } from './editor.bench.js'
import { decodeBase64, draftRoot, encodeBase64, readDraft } from '../app/shared/coedit/mirror.js'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile } from '../bin/prepare.js'
import { sqliteApp } from './sqlite_app.js'

const ROOT = process.env.BENCH_ROOT || join(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 3370)
const BASE = `http://127.0.0.1:${PORT}`
const DB = join(ROOT, 'tmp/bench-coedit.sqlite3')
const OUT = join(ROOT, 'build')

function option(name: string, fallback: number) {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`))
  const value = Number(flag?.split('=')[1] ?? fallback)
  if (!(value > 0)) throw new Error(`--${name} must be positive`)
  return value
}
const EDITORS = option('editors', 10)
const RATE = option('rate', 5)
const SECONDS = option('seconds', 20)

const { env, ace } = sqliteApp({ out: OUT, port: PORT, db: DB })

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

/** A browser's cookie jar, for one session. */
class Session {
  cookies = new Map<string, string>()
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair.indexOf('=')
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
  }
  get header() {
    return [...this.cookies].map(([key, value]) => `${key}=${value}`).join('; ')
  }
  get xsrf() {
    return decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? '')
  }
  async fetch(path: string, init: RequestInit = {}) {
    const response = await fetch(`${BASE}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        'cookie': this.header,
        'x-xsrf-token': this.xsrf,
        'content-type': 'application/json',
        'accept': 'application/json',
        ...(init.headers ?? {}),
      },
    })
    this.take(response)
    return response
  }
}

/** CPU seconds (user + system) and resident bytes of a process, from /proc. */
function processUsage(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return { cpu: ticks / 100, rss: Number(rss?.[1] ?? 0) * 1024 }
}

interface Editor {
  session: Session
  doc: Y.Doc
  clientId: string
  received: number
  receivedBytes: number
  close: () => void
}

/** Sent edits by their update (base64), with when they were made. */
const sentAt = new Map<string, number>()
const latencies: number[] = []

async function openEditor(link: string, botId: string, index: number): Promise<Editor> {
  const session = new Session()
  session.take(await fetch(link, { redirect: 'manual' }))
  await session.fetch('/bots')
  const uid = crypto.randomUUID()
  const controller = new AbortController()
  const stream = await fetch(`${BASE}/__transmit/events?uid=${uid}`, {
    headers: { accept: 'text/event-stream', cookie: session.header },
    signal: controller.signal,
  })
  const subscribed = await session.fetch('/__transmit/subscribe', {
    method: 'POST',
    body: JSON.stringify({ uid, channel: `coedit/bots/${botId}` }),
  })
  if (subscribed.status !== 204) throw new Error(`subscribe: ${subscribed.status}`)
  const joined = await session.fetch(`/api/coedit/bots/${botId}`)
  if (!joined.ok) throw new Error(`join: ${joined.status} ${await joined.text()}`)
  const doc = new Y.Doc()
  Y.applyUpdate(doc, decodeBase64(((await joined.json()) as { state: string }).state))
  const editor: Editor = {
    session,
    doc,
    clientId: `bench-${index}`,
    received: 0,
    receivedBytes: 0,
    close: () => controller.abort(),
  }
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        const now = performance.now()
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n')
          if (!data) continue
          const { payload } = JSON.parse(data)
          if (payload?.type !== 'update' || payload.clientId === editor.clientId) continue
          editor.received++
          editor.receivedBytes += frame.length + 2
          const at = sentAt.get(payload.update)
          if (at !== undefined) latencies.push(now - at)
          Y.applyUpdate(doc, decodeBase64(payload.update), 'remote')
        }
      }
    } catch {
      // Aborted at the end of the run.
    }
  })()
  return editor
}

/** The Y.Texts of the bot's bubbles (what a person types into). */
function bubbleTexts(doc: Y.Doc) {
  const texts: Y.Text[] = []
  const groups = draftRoot(doc).get('groups') as Y.Array<Y.Map<unknown>>
  for (const group of groups.toArray()) {
    for (const block of (group.get('blocks') as Y.Array<Y.Map<unknown>>).toArray()) {
      const content = block.get('content') as Y.Map<unknown> | undefined
      const rich = content?.get('richText') as Y.Array<Y.Map<unknown>> | undefined
      const leaf = (rich?.get(0)?.get('children') as Y.Array<Y.Map<unknown>> | undefined)?.get(0)
      const text = leaf?.get('text')
      if (text instanceof Y.Text) texts.push(text)
    }
  }
  return texts
}

export async function run(): Promise<BenchReport> {
  const loadBefore = loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')
  appBuild(ROOT)
  ensureEnvFile(ROOT)
  copyFileSync(join(ROOT, '.env'), join(OUT, '.env'))
  for (const file of [DB, `${DB}-wal`, `${DB}-shm`]) rmSync(file, { force: true })
  ace(['migration:run', '--force'])
  ace(['db:seed'])
  const email = `bench-coedit-${Date.now()}@example.com`
  const token = ace(['user:token', email, '--name', 'bench']).trim().split('\n').at(-1)!.trim()
  const links = Array.from(
    { length: EDITORS },
    () => /https?:\/\/\S+\/auth\/magic\/[a-f0-9]+/.exec(ace(['user:signin-link', email]))![0]
  )

  const server = spawn(process.execPath, ['--no-node-snapshot', 'bin/server.js'], {
    cwd: OUT,
    env: env(),
    stdio: 'ignore',
  })
  const editors: Editor[] = []
  try {
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${BASE}/health`)).ok) break
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const me = await (
      await fetch(`${BASE}/api/v1/workspaces`, { headers: { authorization: `Bearer ${token}` } })
    ).json()
    const created = await fetch(`${BASE}/api/v1/bots`, {
      method: 'POST',
      headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspaceId: me.workspaces[0].id, bot: generateBot(75, 500) }),
    })
    if (!created.ok) throw new Error(`could not create the bot: ${await created.text()}`)
    const botId = (await created.json()).bot.id as string
    for (let i = 0; i < EDITORS; i++) editors.push(await openEditor(links[i], botId, i))

    const before = processUsage(server.pid!)
    const started = performance.now()
    let sentBytes = 0
    let edits = 0
    let failures = 0
    const period = 1000 / RATE
    await Promise.all(
      editors.map(async (editor, index) => {
        // Spread the editors over the period, as people do not type in step.
        await new Promise((resolve) => setTimeout(resolve, (period * index) / EDITORS))
        const texts = bubbleTexts(editor.doc)
        let next = performance.now()
        while (performance.now() - started < SECONDS * 1000) {
          const text = texts[Math.floor(Math.random() * texts.length)]
          let update: Uint8Array | null = null
          const take = (bytes: Uint8Array) => {
            update = bytes
          }
          editor.doc.once('update', take)
          text.insert(Math.floor(Math.random() * (text.length + 1)), 'x')
          const body = encodeBase64(update!)
          sentAt.set(body, performance.now())
          const payload = JSON.stringify({ clientId: editor.clientId, update: body })
          sentBytes += payload.length
          edits++
          const response = await editor.session.fetch(`/api/coedit/bots/${botId}/updates`, {
            method: 'POST',
            body: payload,
          })
          if (response.status !== 204) failures++
          next += period
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())))
        }
      })
    )
    const elapsed = (performance.now() - started) / 1000
    // The last events and the merged draft's last write (within 300 ms of the last update).
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const after = processUsage(server.pid!)
    const cores = (after.cpu - before.cpu) / elapsed

    const db = knex({
      client: 'better-sqlite3',
      connection: { filename: DB },
      useNullAsDefault: true,
    })
    const row = await db('bots').where('id', botId).first()
    await db.destroy()
    const stored = JSON.parse(row.groups)
    const converged = editors.every(
      (editor) => JSON.stringify(readDraft(editor.doc).groups) === JSON.stringify(stored)
    )
    const received = editors.reduce((sum, editor) => sum + editor.received, 0)
    const receivedBytes = editors.reduce((sum, editor) => sum + editor.receivedBytes, 0)
    const expected = edits * (EDITORS - 1)
    const p95 = percentile(latencies, 95)
    return {
      name: 'coedit',
      results: [
        { metric: 'editors', value: EDITORS, unit: 'editors' },
        { metric: 'edits sent', value: edits, unit: 'edits', aim: `${EDITORS * RATE}/s` },
        {
          metric: 'edits per second',
          value: Number((edits / elapsed).toFixed(1)),
          unit: 'edits/s',
        },
        { metric: 'failed edits', value: failures, unit: 'edits', aim: '0', met: failures === 0 },
        {
          metric: 'arrivals',
          value: received,
          unit: 'events',
          aim: `${expected}`,
          met: received === expected,
        },
        { metric: 'edit -> arrival p50', value: Math.round(percentile(latencies, 50)), unit: 'ms' },
        {
          metric: 'edit -> arrival p95',
          value: Math.round(p95),
          unit: 'ms',
          aim: '< 300',
          met: p95 < 300,
        },
        { metric: 'edit -> arrival p99', value: Math.round(percentile(latencies, 99)), unit: 'ms' },
        { metric: 'server CPU', value: Number(cores.toFixed(2)), unit: 'cores' },
        { metric: 'server memory (RSS, end)', value: Math.round(after.rss / 2 ** 20), unit: 'MB' },
        { metric: 'bytes sent per edit', value: Math.round(sentBytes / edits), unit: 'B' },
        {
          metric: 'bytes received per edit per editor',
          value: Math.round(receivedBytes / Math.max(1, received)),
          unit: 'B',
        },
        {
          metric: 'replicas equal to the stored draft',
          value: converged ? 1 : 0,
          unit: 'bool',
          aim: '1',
          met: converged,
        },
      ],
      notes: [
        `500 blocks in 75 groups; ${EDITORS} editors x ${RATE} edits/s for ${SECONDS} s; SQLite, one server process.`,
        `Load average before: ${loadBefore}; after: ${loadavg()
          .map((n) => n.toFixed(2))
          .join(', ')} (the load generator shares the machine).`,
      ],
    }
  } finally {
    for (const editor of editors) editor.close()
    await stop(server)
  }
}
