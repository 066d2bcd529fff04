import type { Redis } from 'ioredis'
import type { JobDefinition } from '#queue/types'

/**
 * Jobs for the fault tests, shared by the test process and the worker it kills
 * (worker_fixture.ts). Every start and every finish is pushed to a Redis list, so the test
 * can count runs across processes: "start:<who>:<jobId>" and "done:<who>:<jobId>".
 */
export const SLOW_JOB = 'fault:slow'
export const FRAGILE_JOB = 'fault:fragile'

export const logKey = (prefix: string) => `${prefix}:log`

/** holdMs: how long each run takes (the worker to be killed holds its jobs for long). */
export function recordingJobs(
  redis: Redis,
  prefix: string,
  who: string,
  holdMs: number
): JobDefinition[] {
  const handler: JobDefinition['handler'] = async (_payload, { jobId, signal }) => {
    await redis.rpush(logKey(prefix), `start:${who}:${jobId}`)
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, holdMs)
      signal.addEventListener('abort', () => {
        clearTimeout(timer)
        reject(signal.reason)
      })
    })
    await redis.rpush(logKey(prefix), `done:${who}:${jobId}`)
  }
  return [
    { name: SLOW_JOB, handler, concurrency: 2 },
    {
      name: FRAGILE_JOB,
      handler,
      concurrency: 2,
      onFailed: async (_payload, error, { jobId }) => {
        const message = error instanceof Error ? error.message : String(error)
        await redis.rpush(logKey(prefix), `failed:${who}:${jobId}:${message}`)
      },
    },
  ]
}
