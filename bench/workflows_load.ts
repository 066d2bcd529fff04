/*
| The load generator of `npm run bench -- workflows`, run as its own process so that it does
| not share an event loop with the server: CONCURRENCY callers POST to a webhook URL for
| DURATION_MS, each waiting for its answer before the next call. Prints one JSON line.
| node:http with keep-alive connections (one per caller) rather than fetch: on a 2-core
| machine the generator's own CPU is taken from the server, and fetch spent about twice as
| much per call.
| Usage: node bench/workflows_load.ts <url> <concurrency> <durationMs>
*/
import { Agent, request } from 'node:http'

const [url, concurrencyArg, durationArg] = process.argv.slice(2)
const concurrency = Number(concurrencyArg)
const durationMs = Number(durationArg)
const target = new URL(url)
const agent = new Agent({ keepAlive: true, maxSockets: concurrency })

const latencies: number[] = []
let errors = 0
/** Errors by HTTP status ('network' for a failed connection): a 503 is not a 500. */
const errorsByStatus: Record<string, number> = {}
let wrongAnswers = 0
let sequence = 0
const until = Date.now() + durationMs
const startedAt = performance.now()

function call(payload: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        response.on('error', reject)
      }
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < until) {
      const id = ++sequence
      const began = performance.now()
      try {
        const answer = await call(JSON.stringify({ id }))
        const ms = performance.now() - began
        if (answer.status !== 200) {
          errors++
          errorsByStatus[answer.status] = (errorsByStatus[answer.status] ?? 0) + 1
          continue
        }
        const body = JSON.parse(answer.body) as { ok?: boolean; id?: unknown }
        // The respond node echoes the set variable: a wrong id means a mixed-up run.
        if (body.ok !== true || String(body.id) !== String(id)) wrongAnswers++
        latencies.push(ms)
      } catch {
        errors++
        errorsByStatus.network = (errorsByStatus.network ?? 0) + 1
      }
    }
  })
)
const seconds = (performance.now() - startedAt) / 1000
agent.destroy()
process.stdout.write(
  JSON.stringify({ latencies, errors, errorsByStatus, wrongAnswers, seconds }) + '\n'
)
