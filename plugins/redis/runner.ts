import type { Runner, RunnerContext } from '#sdk/plugin'
import type plugin from './index.js'
import { redisClient } from './lib/connection.js'

type Action = keyof NonNullable<(typeof plugin)['actions']>
type Context = RunnerContext<Record<string, any>, { url?: string }>

/**
 * Runs one Redis command on the credential's server. Failures are logged with Redis's
 * message (the node fails and its retries apply); the key is substituted but never parsed,
 * so a variable cannot add a command.
 */
function command(
  failure: string,
  work: (context: Context, redis: import('ioredis').Redis) => Promise<unknown>
): Runner<typeof plugin, any> {
  return async (context) => {
    const ctx = context as unknown as Context
    try {
      const { redis } = await redisClient(String(ctx.credentials.url ?? ''))
      return (await work(ctx, redis)) as any
    } catch (error) {
      ctx.logger.error(failure, error instanceof Error ? error.message : String(error))
    }
  }
}

function keyOf({ options, logger }: Context): string | null {
  const key = typeof options.key === 'string' ? options.key : ''
  if (!key) logger.error('The key is empty')
  return key || null
}

function numberOf(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null
  const number = Number(value)
  return Number.isFinite(number) ? number : Number.NaN
}

const runners: Record<Action, Runner<typeof plugin, any>> = {
  'Get': command('Get failed', async (context, redis) => {
    const key = keyOf(context)
    if (!key) return
    const value = await redis.get(key)
    if (value === null) context.logger.info(`Key ${key} does not exist`)
    else context.variables.set(context.options.saveInVariableId, value)
    return { output: { key, value } }
  }),
  'Set': command('Set failed', async (context, redis) => {
    const key = keyOf(context)
    if (!key) return
    const value = String(context.options.value ?? '')
    const ttl = numberOf(context.options.ttlSeconds)
    if (ttl !== null && !(Number.isInteger(ttl) && ttl > 0)) {
      return void context.logger.error('The expiry must be a whole number of seconds')
    }
    if (ttl === null) await redis.set(key, value)
    else await redis.set(key, value, 'EX', ttl)
    context.logger.success(`Key ${key} set`)
    return { output: { key, value, ttlSeconds: ttl } }
  }),
  'Delete': command('Delete failed', async (context, redis) => {
    const key = keyOf(context)
    if (!key) return
    const deleted = await redis.del(key)
    if (deleted === 0) context.logger.info(`Key ${key} does not exist`)
    else context.logger.success(`Key ${key} deleted`)
    return { output: { key, deleted } }
  }),
  'Increment': command('Increment failed', async (context, redis) => {
    const key = keyOf(context)
    if (!key) return
    const by = numberOf(context.options.by) ?? 1
    if (!Number.isFinite(by)) return void context.logger.error('"By" must be a number')
    const value = Number.isInteger(by)
      ? await redis.incrby(key, by)
      : Number(await redis.incrbyfloat(key, by))
    context.variables.set(context.options.saveInVariableId, value)
    return { output: { key, value } }
  }),
  'Push to list': command('Push failed', async (context, redis) => {
    const key = keyOf(context)
    if (!key) return
    const value = String(context.options.value ?? '')
    const length =
      context.options.side === 'Start'
        ? await redis.lpush(key, value)
        : await redis.rpush(key, value)
    return { output: { key, length } }
  }),
  'Pop from list': command('Pop failed', async (context, redis) => {
    const key = keyOf(context)
    if (!key) return
    const value = context.options.side === 'End' ? await redis.rpop(key) : await redis.lpop(key)
    if (value === null) context.logger.info(`List ${key} is empty`)
    else context.variables.set(context.options.saveInVariableId, value)
    return { output: { key, value } }
  }),
  'Publish': command('Publish failed', async (context, redis) => {
    const channel = typeof context.options.channel === 'string' ? context.options.channel : ''
    if (!channel) return void context.logger.error('The channel is empty')
    const receivers = await redis.publish(channel, String(context.options.message ?? ''))
    context.logger.success(`Published to ${channel} (${receivers} subscribers)`)
    return { output: { channel, receivers } }
  }),
}

export default runners
