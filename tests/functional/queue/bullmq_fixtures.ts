import { spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { Redis } from 'ioredis'
import type { Group } from '@japa/runner/core'
import { BullMQDriver, type BullMQDriverOptions } from '#queue/bullmq_driver'
import { type JobDefinition } from '#queue/types'

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
export const RUN = `fc-test-${process.pid}-${Date.now().toString(36)}`
let prefixes = 0
export const newPrefix = () => `${RUN}-${++prefixes}`

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('Timed out waiting for a condition')
    await sleep(10)
  }
}

export function job<P = any>(
  name: string,
  handler: JobDefinition<P>['handler'],
  extra: Partial<JobDefinition<P>> = {}
): JobDefinition<P> {
  return { name, handler, ...extra }
}

/** Deletes keys by pattern with SCAN: other suites share this Redis, so never FLUSHDB. */
export async function deleteKeys(redis: Redis, pattern: string) {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) await redis.del(...keys)
  } while (cursor !== '0')
}

/** The ids of the Redis connections a driver opened (named after its prefix). */
export async function clientIdsOf(redis: Redis, prefix: string): Promise<string[]> {
  const list = (await redis.call('CLIENT', 'LIST', 'TYPE', 'normal')) as string
  return list
    .split('\n')
    .filter((line) => line.includes(` name=${prefix}:`))
    .map((line) => /(?:^|\s)id=(\d+)/.exec(line)![1])
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Resolves with the output so far once it matches, rejects if the process exits first. */
export function outputOf(child: ChildProcess) {
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  return {
    get text() {
      return output
    },
    async waitFor(pattern: RegExp, timeoutMs: number) {
      const started = Date.now()
      while (!pattern.test(output)) {
        if (child.exitCode !== null || Date.now() - started > timeoutMs) {
          throw new Error(`Expected ${pattern} from the child process, got:\n${output}`)
        }
        await sleep(20)
      }
    },
  }
}

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0

/**
 * The drivers, child processes and admin connection of a test group: drivers closed and
 * children killed after each test, the run's keys deleted after the group.
 */
export function bullmqRoom(group: Group) {
  const room = {
    admin: undefined as unknown as Redis,
    children: [] as ChildProcess[],
    drivers: [] as BullMQDriver[],
    driverFor(prefix: string, options: Partial<BullMQDriverOptions> = {}) {
      const driver = new BullMQDriver({
        url: REDIS_URL,
        prefix,
        closeTimeoutMs: 2000,
        ...options,
      })
      room.drivers.push(driver)
      return driver
    },
  }
  group.setup(async () => {
    room.admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 })
    return async () => {
      await deleteKeys(room.admin, `${RUN}*`)
      await room.admin.quit()
    }
  })
  group.each.teardown(async () => {
    for (const child of room.children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
    await Promise.all(room.drivers.splice(0).map((driver) => driver.close()))
  })
  return room
}
