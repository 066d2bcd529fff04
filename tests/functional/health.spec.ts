import { test } from '@japa/runner'
import env from '#start/env'

test.group('Health', () => {
  test('GET /health answers 200 with the database state', async ({ client, assert }) => {
    const response = await client.get('/health')
    response.assertStatus(200)
    assert.equal(response.body().status, 'ok')
    assert.equal(response.body().checks.database.status, 'ok')
    assert.notProperty(response.body().checks, 'redis')
  })

  test('with REDIS_URL it checks Redis too, and answers 503 when Redis is down', async ({
    client,
    assert,
    cleanup,
  }) => {
    const before = env.get('REDIS_URL')
    cleanup(() => {
      env.set('REDIS_URL', before as any)
      // process.env keeps strings: an unset value would come back as "undefined", which the
      // app processes started by later tests would read as a Redis URL.
      if (before === undefined) delete process.env.REDIS_URL
    })

    env.set('REDIS_URL', 'redis://127.0.0.1:6379')
    const up = await client.get('/health')
    up.assertStatus(200)
    assert.equal(up.body().checks.redis.status, 'ok')

    env.set('REDIS_URL', 'redis://127.0.0.1:1')
    const down = await client.get('/health')
    down.assertStatus(503)
    assert.equal(down.body().status, 'error')
    assert.equal(down.body().checks.redis.status, 'error')
    assert.equal(down.body().checks.database.status, 'ok')
  })
})
