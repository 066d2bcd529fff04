import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import router from '@adonisjs/core/services/router'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import {
  createUser,
  firstWorkspaceOf,
  oneGroupExport,
  publishThroughApi,
  setUserPlan,
  textBubble,
} from '#tests/helpers'

/*
 * API clients get JSON on every error, whatever they ask for in Accept: a 503 with
 * Retry-After while the database is out of reach, and a 500 that shows no internals.
 */

/** A database the driver cannot reach: a refused port, or a SQLite path it cannot open. */
function unreachable(config: any) {
  if (config.client === 'better-sqlite3') {
    // A folder, not a file: SQLite answers SQLITE_CANTOPEN as for a lost disk.
    return { ...config, connection: { ...config.connection, filename: '/tmp' } }
  }
  const scheme = config.client === 'mysql2' ? 'mysql' : 'postgres'
  return { ...config, connection: `${scheme}://root@127.0.0.1:1/unreachable` }
}

/** Runs `during` with the app's database connection pointed at nothing, then restores it. */
async function withDatabaseOut(during: () => Promise<void>) {
  const name = db.primaryConnectionName
  const config = db.manager.get(name)!.config
  // Parts of the app keep this knex instance (the rate limiter's database store): patching
  // destroys its pool, so it gets a new one after, as a database coming back would give it.
  const kept = db.connection(name).getWriteClient() as any
  // Lucid's patch destroys the replaced pool without waiting for it. Awaited here, so that a
  // pool given back below is not destroyed after (the limiter then failed every later
  // request with "Unable to acquire a connection").
  await db.manager.get(name)!.connection?.disconnect()
  db.manager.patch(name, unreachable(config))
  // A limiter first used during the outage keeps the outage's knex instance (the limiter
  // manager caches it): after, it is pointed at the database again, as `kept` is.
  const outage = db.connection(name).getWriteClient() as any
  try {
    await during()
  } finally {
    await db.manager.get(name)!.connection?.disconnect()
    db.manager.patch(name, config)
    db.manager.connect(name)
    if (!kept.client.pool) kept.client.initializePool(kept.client.config)
    if (outage !== kept) {
      outage.client.connectionSettings = kept.client.connectionSettings
      outage.client.config = kept.client.config
      if (!outage.client.pool) outage.client.initializePool(kept.client.config)
    }
  }
}

function chatBot() {
  return oneGroupExport(
    'outagebot00001',
    'Outage',
    [textBubble('b1', 'Hi'), { id: 'b2', type: 'text input', options: { variableId: 'v1' } }],
    [{ id: 'v1', name: 'Name' }]
  )
}

test.group('API errors', () => {
  test('a database outage answers 503 JSON with Retry-After on the API and the chat API, and service comes back', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, 'outage')).value
    const publicId = await publishThroughApi(client, chatBot())

    await withDatabaseOut(async () => {
      // A browser-like Accept header: the API still answers JSON.
      const api = await client
        .get(`/api/v1/workspaces/${workspace.id}/bots`)
        .bearerToken(token)
        .header('accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
      assert.equal(api.status(), 503, api.text())
      assert.match(api.header('content-type') ?? '', /^application\/json/)
      assert.equal(api.header('retry-after'), '5')
      assert.deepEqual(api.body(), {
        message: 'The service is temporarily unavailable. Try again in a few seconds.',
        code: 'E_SERVICE_UNAVAILABLE',
      })

      const chat = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
      assert.equal(chat.status(), 503, chat.text())
      assert.match(chat.header('content-type') ?? '', /^application\/json/)
      assert.equal(chat.header('retry-after'), '5')
      assert.equal(chat.body().code, 'E_SERVICE_UNAVAILABLE')
    })

    // Nothing of the outage is kept: the same calls work once the database is back.
    const api = await client.get(`/api/v1/workspaces/${workspace.id}/bots`).bearerToken(token)
    api.assertStatus(200)
    const chat = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    chat.assertStatus(200)
    assert.isString(chat.body().sessionId)
  }).timeout(60_000)

  test('with the database out, every /api route answers its errors in JSON, 503 and not 500', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, 'outage-walk')).value
    const publicId = await publishThroughApi(client, chatBot())
    // Real ids where the routes take them, so that a route's own lookups are what fails.
    const known: Record<string, string> = {
      workspaceId: workspace.id,
      publicId,
      typebotId: publicId,
    }
    const routes = Object.values(router.toJSON())
      .flat()
      .filter((route) => route.pattern.startsWith('/api/'))
    assert.isAbove(routes.length, 30, 'the walk sees the API routes')

    const offenders: string[] = []
    let answered = 0
    await withDatabaseOut(async () => {
      for (const route of routes) {
        const url = route.pattern
          .replace(/:(\w+)\??/g, (_, name: string) => encodeURIComponent(known[name] ?? 'sample'))
          .replace(/\*/g, 'sample')
        for (const method of route.methods.filter((m) => m !== 'HEAD')) {
          // With a token and without: both a caller's and a visitor's way in must hold.
          for (const withToken of [true, false]) {
            let request = client
              .request(url, method.toLowerCase() as 'get')
              .header('accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
              .redirects(0)
            if (withToken) request = request.bearerToken(token)
            if (method !== 'GET') request = request.json({})
            const response = await request
            answered++
            const type = response.header('content-type') ?? ''
            const label = `${method} ${route.pattern}${withToken ? '' : ' (no token)'}`
            if (response.status() >= 400 && !/^application\/(problem\+)?json/.test(type))
              offenders.push(`${label}: ${response.status()} ${type}`)
            else if (response.status() === 500)
              offenders.push(`${label}: 500 during an outage (${response.text().slice(0, 120)})`)
          }
        }
      }
    })
    assert.isAbove(answered, 60)
    assert.deepEqual(offenders, [])
  }).timeout(180_000)

  test('a server error on the API answers 500 JSON with the request id, never the SQL', async ({
    client,
    assert,
    cleanup,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, 'broken')).value
    // A schema the code does not expect (a migration half applied): a fault on our side.
    await db.rawQuery('ALTER TABLE bots RENAME TO bots_away')
    cleanup(() => db.rawQuery('ALTER TABLE bots_away RENAME TO bots'))

    const response = await client
      .get(`/api/v1/workspaces/${workspace.id}/bots`)
      .bearerToken(token)
      .header('accept', 'text/html')
      .header('x-request-id', 'req-500-check')
    assert.equal(response.status(), 500, response.text())
    assert.match(response.header('content-type') ?? '', /^application\/json/)
    assert.deepEqual(response.body(), {
      message: 'Internal server error',
      code: 'E_INTERNAL_SERVER_ERROR',
      requestId: 'req-500-check',
    })
    assert.notInclude(response.text(), 'bots')
  })

  test('an unknown API path answers 404 JSON', async ({ client, assert }) => {
    const response = await client.get('/api/v1/no-such-thing').header('accept', 'text/html')
    assert.equal(response.status(), 404)
    assert.match(response.header('content-type') ?? '', /^application\/json/)
    assert.equal(response.body().code, 'E_ROUTE_NOT_FOUND')
  })
})
