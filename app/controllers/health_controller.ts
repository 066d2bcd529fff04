import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { Redis } from 'ioredis'

async function timed(check: () => Promise<unknown>) {
  const started = performance.now()
  try {
    await check()
    return {
      status: 'ok' as const,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
    }
  } catch (error) {
    return { status: 'error' as const, message: (error as Error).message }
  }
}

async function runsCheck() {
  try {
    const { strandedRuns } = await import('#services/workflows/run_health')
    const stranded = await strandedRuns()
    const stuck = stranded.queuedWithoutJob + stranded.leaseExpired
    return {
      status: stuck > 0 ? ('error' as const) : ('ok' as const),
      ...(stuck > 0 ? { message: `${stuck} workflow runs are waiting without a job` } : {}),
      ...stranded,
    }
  } catch (error) {
    return { status: 'error' as const, message: (error as Error).message }
  }
}

/**
 * GET /health: 200 when every configured dependency answers, 503 otherwise; the body's
 * status is "degraded" when they answer but workflow runs wait without a job.
 */
export default class HealthController {
  async handle({ response }: HttpContext) {
    const checks: Record<string, unknown> = {
      database: {
        connection: env.get('DB_CONNECTION'),
        ...(await timed(() => db.rawQuery('select 1'))),
      },
    }
    const redisUrl = env.get('REDIS_URL')
    if (redisUrl) {
      checks.redis = await timed(async () => {
        const client = new Redis(redisUrl, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          connectTimeout: 2000,
          retryStrategy: () => null,
        })
        // connect() reports the failure; keep ioredis from also logging it as unhandled.
        client.on('error', () => {})
        try {
          await client.connect()
          await client.ping()
        } finally {
          client.disconnect()
        }
      })
    }
    const healthy = Object.values(checks).every((c: any) => c.status === 'ok')
    // Runs waiting for the queue while nothing in it will run them (an emptied Redis, no
    // worker left): the app answers, but work it accepted is stuck. Said in the body
    // ("degraded") rather than by a 503: taking web processes out of rotation would not
    // bring the runs back (docs/queue.md, "An empty Redis").
    checks.runs = await runsCheck()
    const stuck = (checks.runs as { status: string }).status !== 'ok'
    const status = !healthy ? 'error' : stuck ? 'degraded' : 'ok'
    return response.status(healthy ? 200 : 503).send({ status, checks })
  }
}
