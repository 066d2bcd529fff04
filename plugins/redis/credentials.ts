import type { CredentialsTestContext } from '#sdk/runner'
import { redisClient } from './lib/connection.js'

/** The Test button: a PING through the client the nodes will use. */
export async function test({ credentials }: CredentialsTestContext) {
  try {
    const { redis } = await redisClient(String(credentials.url ?? ''))
    return { ok: (await redis.ping()) === 'PONG', message: 'Connected.' }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}
