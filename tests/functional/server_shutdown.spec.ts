import { test } from '@japa/runner'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { groupPids } from '../../bin/process_group.js'

/*
| bin/server.ts with WEB_CONCURRENCY=2, as a process tree of its own: a primary and two web
| processes. SIGTERM to the primary must finish the request in flight and then end every
| process, well inside the 15 s an orchestrator waits before SIGKILL. A cluster's web
| process used to stay alive after closing its server (its IPC channel to the primary holds
| it), so the primary waited on its children for ever.
|
| Several web processes need a shared database and BullMQ; the server only checks the
| settings at boot and the request below needs neither, so the database named in
| DATABASE_URL does not even have to be migrated. Redis must answer.
*/

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function redisAnswers() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 })
  try {
    await redis.connect()
    return (await redis.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    redis.disconnect()
  }
}

function psOf(pids: number[]) {
  if (pids.length === 0) return ''
  return spawnSync('ps', ['-o', 'pid=,args=', '-p', pids.join(',')], { encoding: 'utf8' }).stdout
}

const redisUp = await redisAnswers()

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test.group('Server with WEB_CONCURRENCY=2', () => {
  test('SIGTERM to the primary finishes the request in flight, then every process exits within 15 s', async ({
    assert,
  }) => {
    const port = await freePort()
    const primary: ChildProcess = spawn(
      process.execPath,
      ['--no-node-snapshot', '--import=ts-node-maintained/register/esm', 'bin/server.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          WEB_CONCURRENCY: '2',
          // Several web processes need PostgreSQL or MySQL: the run's own when it uses one.
          ...(process.env.DB_CONNECTION === 'pg' || process.env.DB_CONNECTION === 'mysql'
            ? { DB_CONNECTION: process.env.DB_CONNECTION, DATABASE_URL: process.env.DATABASE_URL }
            : { DB_CONNECTION: 'pg', DATABASE_URL: 'postgres://root@127.0.0.1:5432/test' }),
          QUEUE_DRIVER: 'bullmq',
          REDIS_URL,
          QUEUE_PREFIX: `shutdown_${process.pid}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }
    )
    let output = ''
    primary.stdout!.on('data', (chunk) => (output += chunk))
    primary.stderr!.on('data', (chunk) => (output += chunk))
    const exited = once(primary, 'exit')
    try {
      const base = `http://127.0.0.1:${port}`
      const deadline = Date.now() + 240_000
      let up = false
      while (!up && Date.now() < deadline) {
        if (primary.exitCode !== null) assert.fail(`the server exited: ${output}`)
        up = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) }).then(
          (r) => r.status < 500,
          () => false
        )
        if (!up) await sleep(200)
      }
      assert.isTrue(up, `the server did not start: ${output}`)
      // Both web processes are up once each has answered; the primary hands connections out
      // in turn, so a few requests reach both.
      for (let i = 0; i < 4; i++)
        await fetch(`${base}/health`, { signal: AbortSignal.timeout(30_000) })
      // On a loaded machine the process list can lag behind the first answers: look again
      // for a while before deciding the web processes are missing.
      let pids = groupPids(primary.pid!)
      while (pids.length < 3 && Date.now() < deadline) {
        await sleep(500)
        pids = groupPids(primary.pid!)
      }
      assert.isAtLeast(
        pids.length,
        3,
        `expected a primary and 2 web processes: ${pids}\n${psOf(pids)}\n${output}`
      )

      // A request in flight: headers and half its body sent; the rest comes after SIGTERM.
      const body = JSON.stringify({ name: 'in flight', padding: 'x'.repeat(200) })
      const socket = connect(port, '127.0.0.1')
      await once(socket, 'connect')
      let response = ''
      socket.on('data', (chunk) => (response += chunk))
      socket.write(
        `POST /api/v1/workspaces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: application/json\r\nAccept: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n` +
          body.slice(0, 50)
      )
      await sleep(500)

      const signalledAt = Date.now()
      process.kill(primary.pid!, 'SIGTERM')
      await sleep(1000)
      assert.isNull(primary.exitCode, 'the primary must wait for the request in flight')
      socket.write(body.slice(50))
      const answerDeadline = Date.now() + 5000
      while (!/^HTTP\/1\.1 \d{3}/.test(response) && Date.now() < answerDeadline) await sleep(50)
      assert.match(response, /^HTTP\/1\.1 40[13] /, 'the request in flight gets its answer')

      // The client keeps its keep-alive connection open, as browsers and proxies do.
      const stoppedInTime = await Promise.race([
        exited.then(() => true),
        sleep(15_000 - (Date.now() - signalledAt)).then(() => false),
      ])
      assert.isTrue(stoppedInTime, `the primary still runs 15 s after SIGTERM: ${output}`)
      assert.equal(primary.exitCode, 0, output)
      // The primary goes last. A helper process of a web process (esbuild, the TypeScript
      // loader's service when the app runs from its sources) may end a moment after its
      // parent: every process counts, within the same 15 s.
      let left = groupPids(primary.pid!)
      while (left.length > 0 && Date.now() - signalledAt < 15_000) {
        await sleep(100)
        left = groupPids(primary.pid!)
      }
      assert.deepEqual(left, [], `processes left: ${psOf(left)}`)
      assert.notMatch(output, /still busy/, 'no web process had to be cut off')
      socket.destroy()
    } finally {
      try {
        process.kill(-primary.pid!, 'SIGKILL')
      } catch {}
    }
  })
    .timeout(300_000)
    .skip(!redisUp, `Redis does not answer at ${REDIS_URL}`)
})
