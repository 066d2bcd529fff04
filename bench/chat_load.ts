/*
| The chat bench's load generator (bench/chat.bench.ts): visitors on keep-alive sockets, the
| closed loop and the paced run, and the tally that checks every answer.
*/
import { Agent, request } from 'node:http'
import { loadavg } from 'node:os'
import { type Knex } from 'knex'

export const PORT = Number(process.env.BENCH_PORT) || 3360
/** The embedded set-up: SQLite, one process (SQLite takes one writer, cluster mode needs pg). */
export const SQLITE = process.argv.includes('--sqlite')
export const TURNS = 10

export function load() {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

/*
| The load generator's HTTP client: node:http on keep-alive sockets, one per visitor at
| most, and no fetch (its WHATWG streams and Response objects cost the load generator more
| CPU per request than the server's own turn on a shared 2-core machine).
*/
export let agent = new Agent({ keepAlive: true, maxSockets: 256 })

/**
 * New sockets for a measurement: ones left idle while PostgreSQL was measured may be closed
 * by the server at the moment they are reused (a reset that would count as an error).
 */
export function renewSockets() {
  agent.destroy()
  agent = new Agent({ keepAlive: true, maxSockets: 256 })
}

export interface Reply {
  status: number
  json: any
}

/**
 * BENCH_TRACE=<file>: the paced run writes there each turn slower than BENCH_TRACE_MS (100)
 * from its due time, with where its time went: the send's own lag, waiting for a socket
 * (and a new connection's connect), the server's answer (first byte), the body.
 */
export const TRACE_FILE = process.env.BENCH_TRACE
export const TRACE_MS = Number(process.env.BENCH_TRACE_MS) || 100
export const traceRows: string[] = []

export function trace(due: number, sentAt: number, req: ReturnType<typeof request>, path: string) {
  let socketAt = 0
  let connectedAt = 0
  let reused = false
  let firstByteAt = 0
  req.once('socket', (socket) => {
    socketAt = performance.now()
    reused = !socket.connecting
    if (!reused) socket.once('connect', () => (connectedAt = performance.now()))
  })
  req.once('response', (res) => {
    firstByteAt = performance.now()
    res.once('end', () => {
      const end = performance.now()
      if (end - due <= TRACE_MS) return
      const ms = (n: number) => n.toFixed(0)
      traceRows.push(
        [
          new Date().toISOString(),
          `total=${ms(end - due)}`,
          `send=${ms(sentAt - due)}`,
          `socket=${ms(socketAt - sentAt)}${reused ? '' : ` new, connect=${ms(connectedAt - sentAt)}`}`,
          `first-byte=${ms(firstByteAt - sentAt)}`,
          `body=${ms(end - firstByteAt)}`,
          path,
        ].join(' ')
      )
    })
  })
}

export function post(path: string, body: string, due?: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now()
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
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
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(Buffer.concat(chunks).toString()),
            })
          } catch (error) {
            reject(error)
          }
        })
        res.on('error', reject)
      }
    )
    if (TRACE_FILE && due !== undefined) trace(due, sentAt, req, path)
    req.on('error', reject)
    req.end(body)
  })
}

export const EMPTY = '{}'
export function answerBody() {
  return `{"message":"${Math.floor(Math.random() * 100)}"}`
}

export async function writesSoFar(client: Knex) {
  // SQLite keeps no such statistics: its runs report no writes per turn.
  if (SQLITE) return 0
  const { rows } = await client.raw(
    "SELECT COALESCE(SUM(n_tup_ins + n_tup_upd), 0)::bigint AS writes FROM pg_stat_user_tables WHERE relname IN ('chat_sessions', 'results', 'answers', 'result_logs', 'chat_usage')"
  )
  return Number(rows[0].writes)
}

/** What one measurement saw; `sent` counts the answered continueChat turns per result. */
export interface Tally {
  latencies: number[]
  errors: number
  turns: number
  seconds: number
  sent: Map<string, number>
  /** The first few failures, to say what they were. */
  failures: string[]
  /** Chats that asked no next question before their last turn: the bot or the engine broke. */
  endedEarly: number
  /** Turns answered in each second of the run (stalls show as dips). */
  perSecond: number[]
  /** The slowest answer of each second: a p99 made by a few stalls shows as a few peaks. */
  worstPerSecond: number[]
  /** Paced: how late the load generator itself sent each second's latest turn. */
  sendLagPerSecond: number[]
  startedAt: number
}

export function answered(tally: Tally, latency: number) {
  tally.latencies.push(latency)
  tally.turns++
  const second = Math.floor((performance.now() - tally.startedAt) / 1000)
  tally.perSecond[second] = (tally.perSecond[second] ?? 0) + 1
  tally.worstPerSecond[second] = Math.max(tally.worstPerSecond[second] ?? 0, latency)
}

export function fail(tally: Tally, what: string, reply: Reply | Error | null) {
  tally.errors++
  if (tally.failures.length >= 5) return
  const detail =
    reply instanceof Error
      ? reply.message
      : reply
        ? `${reply.status} ${JSON.stringify(reply.json).slice(0, 200)}`
        : 'no reply'
  tally.failures.push(`${what}: ${detail}`)
}

/**
 * Every reply before the last turn must ask the next question: a chat that ends early
 * leaves the load generator answering nothing, and its figures would measure that.
 */
export function checkGoesOn(tally: Tally, reply: Reply, turn: number) {
  if (turn < TURNS && !reply.json.input) {
    tally.endedEarly++
    if (tally.failures.length < 5)
      tally.failures.push(
        `chat ended after ${turn} turn(s): ${JSON.stringify(reply.json).slice(0, 200)}`
      )
    return false
  }
  return true
}

export function newTally(): Tally {
  return {
    latencies: [],
    errors: 0,
    turns: 0,
    seconds: 0,
    sent: new Map(),
    failures: [],
    endedEarly: 0,
    perSecond: [],
    worstPerSecond: [],
    sendLagPerSecond: [],
    startedAt: performance.now(),
  }
}

/** Visitors who send each turn as soon as the previous one is answered. */
export async function closedLoop(publicId: string, visitors: number, durationMs: number) {
  const tally = newTally()
  const until = Date.now() + durationMs
  const startedAt = performance.now()
  const startPath = `/api/v1/typebots/${publicId}/startChat`
  await Promise.all(
    Array.from({ length: visitors }, async () => {
      while (Date.now() < until) {
        let began = performance.now()
        const start = await post(startPath, EMPTY).catch((error: Error) => error)
        if (start instanceof Error || start.status !== 200) {
          fail(tally, 'startChat', start)
          continue
        }
        answered(tally, performance.now() - began)
        if (!checkGoesOn(tally, start, 0)) continue
        const { sessionId, resultId } = start.json
        const path = `/api/v1/sessions/${sessionId}/continueChat`
        for (let t = 0; t < TURNS && Date.now() < until; t++) {
          began = performance.now()
          const reply = await post(path, answerBody()).catch((error: Error) => error)
          if (reply instanceof Error || reply.status !== 200 || !reply.json.messages) {
            fail(tally, 'continueChat', reply)
            break
          }
          answered(tally, performance.now() - began)
          tally.sent.set(resultId, (tally.sent.get(resultId) ?? 0) + 1)
          if (!checkGoesOn(tally, reply, t + 1)) break
        }
      }
    })
  )
  tally.seconds = (performance.now() - startedAt) / 1000
  return tally
}

/**
 * Turns arriving at `rate` per second whatever the server does: each due turn goes to a
 * conversation waiting for its next turn, or starts a new one. A turn's latency counts from
 * when it was due, so time spent in the server's backlog is counted.
 */
export async function paced(publicId: string, rate: number, durationMs: number, leadInMs = 0) {
  const tally = newTally()
  const startPath = `/api/v1/typebots/${publicId}/startChat`
  const idle: { path: string; resultId: string; turn: number }[] = []
  const inFlight = new Set<Promise<void>>()
  const startedAt = performance.now()
  // The measurement starts after the lead-in: turns due before it are sent at the same rate
  // (they open the connections and fill the conversations) but not tallied, errors aside.
  const measuredFrom = startedAt + leadInMs
  tally.startedAt = measuredFrom
  const total = Math.floor((rate * (leadInMs + durationMs)) / 1000)
  let issued = 0

  function send(due: number) {
    const now = performance.now()
    const measured = due >= measuredFrom
    if (measured) {
      const second = Math.floor((now - measuredFrom) / 1000)
      tally.sendLagPerSecond[second] = Math.max(tally.sendLagPerSecond[second] ?? 0, now - due)
    }
    const conversation = idle.pop()
    const task = (async () => {
      if (!conversation) {
        const start = await post(startPath, EMPTY, measured ? due : undefined).catch(
          (error: Error) => error
        )
        if (start instanceof Error || start.status !== 200) {
          fail(tally, 'startChat', start)
          return
        }
        if (measured) answered(tally, performance.now() - due)
        if (!checkGoesOn(tally, start, 0)) return
        idle.push({
          path: `/api/v1/sessions/${start.json.sessionId}/continueChat`,
          resultId: start.json.resultId,
          turn: 0,
        })
        return
      }
      const reply = await post(conversation.path, answerBody(), measured ? due : undefined).catch(
        (error: Error) => error
      )
      if (reply instanceof Error || reply.status !== 200 || !reply.json.messages) {
        fail(tally, 'continueChat', reply)
        return
      }
      if (measured) answered(tally, performance.now() - due)
      tally.sent.set(conversation.resultId, (tally.sent.get(conversation.resultId) ?? 0) + 1)
      if (!checkGoesOn(tally, reply, ++conversation.turn)) return
      if (conversation.turn < TURNS) idle.push(conversation)
    })()
    inFlight.add(task)
    task.finally(() => inFlight.delete(task))
  }

  while (issued < total) {
    const now = performance.now()
    const due = Math.min(total, Math.floor(((now - startedAt) * rate) / 1000))
    while (issued < due) send(startedAt + (issued++ * 1000) / rate)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  await Promise.all(inFlight)
  tally.seconds = (performance.now() - measuredFrom) / 1000
  return tally
}

/** A run whose chats ended before their last turn measured something else: no report. */
export function refuseEarlyEnds(label: string, tally: Tally) {
  if (tally.endedEarly === 0) return
  throw new Error(
    `${label}: ${tally.endedEarly} chat(s) ended before turn ${TURNS}; the figures would not measure ${TURNS}-turn chats.\n${tally.failures.join('\n')}`
  )
}
