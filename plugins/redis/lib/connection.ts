import { Redis } from 'ioredis'
import { checkDatabaseHost, IdleCache, internalHostsAllowed } from '#sdk/data'
import { createHash } from 'node:crypto'

export const REDIS_TIMEOUT_MS = 10_000

interface Client {
  redis: Redis
  /** Connections this client has opened (one, plus reconnections), for the pooling test. */
  opened: number
}

const clients = new IdleCache<Client>(async ({ redis }) => {
  await redis.quit().catch(() => redis.disconnect())
})

/**
 * The client of a credential: made on first use and shared by every run (ioredis sends
 * commands of concurrent runs over its one connection), closed after a while unused. The
 * host goes through the HTTP block's internal-address rule and the client connects to the
 * address that was checked.
 */
export async function redisClient(url: string): Promise<Client> {
  const allowInternal = internalHostsAllowed()
  const key = createHash('sha256')
    .update(JSON.stringify([url.trim(), allowInternal]))
    .digest('hex')
  return clients.use(key, () => connect(url.trim()))
}

async function connect(url: string): Promise<Client> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error('The Redis connection URL is not a valid URL')
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error('The Redis connection URL must start with redis:// or rediss://')
  }
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '')
  const host = await checkDatabaseHost(hostname)
  const db = Number(parsed.pathname.replace(/^\//, '') || 0)
  const client: Client = {
    opened: 0,
    redis: new Redis({
      host,
      port: Number(parsed.port) || 6379,
      username: decodeURIComponent(parsed.username) || undefined,
      password: decodeURIComponent(parsed.password) || undefined,
      db: Number.isInteger(db) ? db : 0,
      tls: parsed.protocol === 'rediss:' ? { servername: hostname } : undefined,
      lazyConnect: true,
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      // A run waits for a command, not for a server that went away.
      retryStrategy: (times) => (times > 3 ? null : 200 * times),
    }),
  }
  client.redis.on('connect', () => (client.opened += 1))
  // Errors reach the command that failed; this keeps them from being unhandled events.
  client.redis.on('error', () => {})
  await client.redis.connect()
  return client
}

/** How many connections the client of this URL has opened (tests). */
export async function redisConnectionsOpened(url: string) {
  return (await redisClient(url)).opened
}
