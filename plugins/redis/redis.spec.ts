import { test } from '@japa/runner'
import { Redis } from 'ioredis'
import { runPluginTest } from '#sdk/testing'
import { redisConnectionsOpened } from './lib/connection.js'

/** Against the machine's real Redis (REDIS_URL, database 8 by default). */
const REDIS_URL = process.env.DATA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/8'
const folder = new URL('./', import.meta.url)
const prefix = `fc_test_${process.pid}_`

const variables = () => [
  { id: 'v_out', name: 'Out', value: null },
  { id: 'v_key', name: 'Key', value: `${prefix}visits` },
]

function run(action: string, options: Record<string, unknown>) {
  return runPluginTest({
    folder,
    surface: 'workflow',
    action,
    options,
    credentials: { url: REDIS_URL },
    variables: variables(),
  })
}

test.group('Redis node', (group) => {
  let direct: Redis
  group.setup(() => {
    direct = new Redis(REDIS_URL)
    return async () => {
      const keys = await direct.keys(`${prefix}*`)
      if (keys.length) await direct.del(...keys)
      direct.disconnect()
    }
  })

  test('Set with an expiry, Get, Delete', async ({ assert }) => {
    const set = await run('Set', { key: `${prefix}greeting`, value: 'hello', ttlSeconds: '60' })
    assert.deepEqual(set.errors, [])
    const ttl = await direct.ttl(`${prefix}greeting`)
    assert.isAbove(ttl, 50)
    assert.isAtMost(ttl, 60)

    const got = await run('Get', { key: `${prefix}greeting`, saveInVariableId: 'v_out' })
    assert.deepEqual(got.variablesSet, [{ id: 'v_out', value: 'hello' }])
    assert.deepEqual(got.output, { key: `${prefix}greeting`, value: 'hello' })

    const deleted = await run('Delete', { key: `${prefix}greeting` })
    assert.deepEqual(deleted.logs[0].description, `Key ${prefix}greeting deleted`)
    assert.isNull(await direct.get(`${prefix}greeting`))

    const missing = await run('Get', { key: `${prefix}greeting`, saveInVariableId: 'v_out' })
    assert.deepEqual(missing.logs[0], {
      status: 'info',
      description: `Key ${prefix}greeting does not exist`,
      details: undefined,
    })
    assert.deepEqual(missing.variablesSet, [])

    const noTtl = await run('Set', { key: `${prefix}kept`, value: 'x' })
    assert.deepEqual(noTtl.errors, [])
    assert.equal(await direct.ttl(`${prefix}kept`), -1)
    const badTtl = await run('Set', { key: `${prefix}kept`, value: 'y', ttlSeconds: '1.5' })
    assert.deepEqual(badTtl.errors, ['The expiry must be a whole number of seconds'])
  })

  test('Increment a counter named by a variable', async ({ assert }) => {
    const first = await run('Increment', { key: '{{Key}}', saveInVariableId: 'v_out' })
    assert.deepEqual(first.variablesSet, [{ id: 'v_out', value: 1 }])
    const second = await run('Increment', { key: '{{Key}}', by: '5', saveInVariableId: 'v_out' })
    assert.deepEqual(second.variablesSet, [{ id: 'v_out', value: 6 }])
    assert.equal(await direct.get(`${prefix}visits`), '6')
    await direct.set(`${prefix}word`, 'abc')
    const failed = await run('Increment', { key: `${prefix}word` })
    assert.deepEqual(failed.errors, ['Increment failed'])
    assert.match(String(failed.logs[0].details), /not an integer/)
  })

  test('Push to a list and pop from either end', async ({ assert }) => {
    const key = `${prefix}queue`
    await run('Push to list', { key, value: 'b' })
    await run('Push to list', { key, value: 'c', side: 'End' })
    const pushed = await run('Push to list', { key, value: 'a', side: 'Start' })
    assert.deepEqual(pushed.output, { key, length: 3 })
    assert.deepEqual(await direct.lrange(key, 0, -1), ['a', 'b', 'c'])
    const first = await run('Pop from list', { key, saveInVariableId: 'v_out' })
    assert.deepEqual(first.variablesSet, [{ id: 'v_out', value: 'a' }])
    const last = await run('Pop from list', { key, side: 'End', saveInVariableId: 'v_out' })
    assert.deepEqual(last.variablesSet, [{ id: 'v_out', value: 'c' }])
    await run('Pop from list', { key })
    const empty = await run('Pop from list', { key, saveInVariableId: 'v_out' })
    assert.equal(empty.logs[0].description, `List ${key} is empty`)
  })

  test('Publish reaches a subscriber', async ({ assert, cleanup }) => {
    const subscriber = new Redis(REDIS_URL)
    cleanup(() => subscriber.disconnect())
    const channel = `${prefix}events`
    const received = new Promise<string>((resolve) =>
      subscriber.on('message', (_channel, message) => resolve(message))
    )
    await subscriber.subscribe(channel)
    const published = await run('Publish', { channel, message: '{"order":42}' })
    assert.deepEqual(published.output, { channel, receivers: 1 })
    assert.equal(await received, '{"order":42}')
  })

  test('50 runs share one connection', async ({ assert }) => {
    const before = await redisConnectionsOpened(REDIS_URL)
    const runs = Array.from({ length: 50 }, () =>
      run('Increment', { key: `${prefix}runs`, saveInVariableId: 'v_out' })
    )
    await Promise.all(runs)
    assert.equal(await direct.get(`${prefix}runs`), '50')
    assert.equal(await redisConnectionsOpened(REDIS_URL), before)
    assert.equal(before, 1)
  })
})
