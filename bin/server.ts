/*
| HTTP server entry point.
|
| WEB_CONCURRENCY=N (N > 1) runs N web processes on one port (node:cluster: the primary
| forks and restarts them, and accepts each new connection and hands it to them in turn;
| requests on an open connection go straight to its process). Web processes
| keep no state of their own, but two things must be shared for that: the database (not the
| SQLite file) and the queue (BullMQ; the in-process queue holds its jobs and schedules in
| the one process that runs it). Without them the server runs one process and says why.
*/
import 'reflect-metadata'
import cluster from 'node:cluster'
import type { ChildProcess } from 'node:child_process'
import { createServer, type RequestListener, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import { Ignitor, prettyPrintError } from '@adonisjs/core'

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

/**
 * Connections stay open between requests longer than proxies keep idle ones (nginx and
 * cloud load balancers: 60 s). Node closes them after 5 s by default, and a proxy or chat
 * client sending its next request just as the server closes the connection gets a reset.
 */
const KEEP_ALIVE_MS = 65_000

function keepAliveServer(handler: RequestListener) {
  // Every request gets an id for its log lines (config/app.ts: generateRequestId). The
  // framework makes one with cuid2, a SHA-3 hash per request (about 2% of a chat turn's
  // CPU); a random UUID is as unique and costs next to nothing. A caller's own
  // X-Request-Id is kept, as the framework does.
  const server = createServer((request, response) => {
    if (request.headers['x-request-id'] === undefined)
      request.headers['x-request-id'] = randomUUID()
    // Stopping: the answer closes its connection, so the client does not send another.
    if (webProcessStopping) response.setHeader('Connection', 'close')
    handler(request, response)
  })
  httpServer = server
  server.keepAliveTimeout = KEEP_ALIVE_MS
  // Must be longer than the keep-alive time, or Node cuts a slow first request's headers.
  server.headersTimeout = KEEP_ALIVE_MS + 1000
  return server
}

/**
 * Graceful stop of one web process: the framework closes the HTTP server (it waits for the
 * requests in flight) and shuts the providers down. A single process then ends by itself
 * once nothing is left to do, but a cluster's web process never does: its IPC channel to the
 * primary keeps it alive, so it lets go of the channel once the app is down. Whatever still
 * holds the process after STOP_GRACE_MS (a request that never ends, a stuck connection) is
 * cut off, so the whole server stops within the 15 s orchestrators allow before a SIGKILL.
 */
const STOP_GRACE_MS = 10_000

let httpServer: Server | undefined
let webProcessStopping = false

async function stopWebProcess(app: { terminate(): Promise<void> }) {
  if (webProcessStopping) return
  webProcessStopping = true
  // Closing the server waits for every open connection, and a keep-alive one that finished
  // its request stays open for KEEP_ALIVE_MS: those are closed as soon as they are idle.
  setInterval(() => httpServer?.closeIdleConnections(), 200).unref()
  setTimeout(() => {
    console.error(
      `[server] web process ${process.pid} still busy after ${STOP_GRACE_MS / 1000} s: exiting`
    )
    process.exit(1)
  }, STOP_GRACE_MS).unref()
  await app.terminate()
  if (cluster.isWorker) process.disconnect()
}

function startServer() {
  new Ignitor(APP_ROOT, { importer: IMPORTER })
    .tap((app) => {
      app.booting(async () => {
        await import('#start/env')
      })
      const stop = () => stopWebProcess(app)
      app.listen('SIGTERM', stop)
      app.listenIf(app.managedByPm2 || cluster.isWorker, 'SIGINT', stop)
    })
    .httpServer()
    .start(keepAliveServer)
    .catch((error) => {
      process.exitCode = 1
      prettyPrintError(error)
    })
}

/** How many web processes to run, from the validated environment (.env included). */
async function webProcesses(): Promise<number> {
  const { default: env } = await import('#start/env')
  const wanted = env.get('WEB_CONCURRENCY') ?? 1
  if (wanted <= 1) return 1
  if (env.get('DB_CONNECTION') === 'sqlite' || env.get('QUEUE_DRIVER') !== 'bullmq') {
    console.warn(
      `[server] WEB_CONCURRENCY=${wanted} ignored: several web processes need DB_CONNECTION=pg or mysql and QUEUE_DRIVER=bullmq; running one process`
    )
    return 1
  }
  return wanted
}

/** The primary: forks the web processes, replaces one that dies, and stops them all on a signal. */
function supervise(count: number) {
  let stopping = false
  // The processes still running. cluster.workers is no guide while stopping: a web process
  // leaves it when it lets go of its IPC channel, before it has exited.
  const running = new Map<number, ChildProcess>()
  const fork = () => {
    const worker = cluster.fork()
    running.set(worker.id, worker.process)
  }
  for (let i = 0; i < count; i++) fork()
  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker.id)
    if (stopping) {
      if (running.size === 0) process.exit(0)
      return
    }
    console.error(
      `[server] web process ${worker.process.pid} exited (${signal ?? code}); restarting it`
    )
    // A process that dies at once would be restarted in a tight loop: wait a little.
    setTimeout(() => {
      if (!stopping) fork()
    }, 1000)
  })
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return
      stopping = true
      if (running.size === 0) process.exit(0)
      for (const child of running.values()) child.kill(signal)
      // Each web process gives up on its own after STOP_GRACE_MS; this is the last resort
      // for one that cannot even do that (blocked event loop).
      setTimeout(() => {
        for (const child of running.values()) child.kill('SIGKILL')
        process.exit(1)
      }, STOP_GRACE_MS + 3000).unref()
    })
  }
}

if (cluster.isWorker) {
  startServer()
} else {
  const count = await webProcesses().catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
    return 0
  })
  if (count > 1) supervise(count)
  else if (count === 1) startServer()
}
