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

/** GET /health: 200 when every configured dependency answers, 503 otherwise. */
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
    return response.status(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'error', checks })
  }
}
