import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import server from '@adonisjs/core/services/server'
import type { IncomingMessage, ServerResponse } from 'node:http'
import Bot from '#models/bot'
import User from '#models/user'
import Workflow from '#models/workflow'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * No state change on GET (docs/security.md): a top-level navigation from any site carries
 * the builder's SameSite=Lax cookie, so a GET that writes is a forged request waiting to
 * happen (issue 27: GET /workflows/create created workflows). This walks every GET route of
 * the router, signed in with real ids in the parameters, and counts the INSERT, UPDATE and
 * DELETE statements the database runs while each request is answered.
 */

/**
 * GETs that write by design, each with why it is safe: the URL itself carries an unguessable
 * proof made for this one browser, so another site cannot forge it.
 */
const WRITES_BY_DESIGN: Record<string, string> = {
  '/auth/magic/:token': 'the sign-in link mailed to the person; one use',
  '/auth/:provider/callback': 'OAuth: the state parameter is checked against the session',
  '/settings/credentials/oauth/callback':
    'OAuth: the state parameter is checked against the session',
}

const WRITE = /^\s*(insert|update|delete|replace|merge|truncate|alter|create|drop)\b/i

test.group('No GET route writes to the database', () => {
  test('every GET route, signed in with real ids, runs no INSERT, UPDATE or DELETE', async ({
    client,
    assert,
  }) => {
    const admin =
      (await User.findBy('email', 'admin@example.com')) ??
      (await createUser({ email: 'admin@example.com' }))
    await setUserPlan(admin, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(admin)
    const token = (await new CreateApiToken().handle(admin, `walk-${Date.now()}`)).value

    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({
        workspaceId: workspace.id,
        bot: {
          version: '6',
          name: 'Walked bot',
          groups: [],
          events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
          edges: [],
          variables: [],
          theme: {},
          settings: {},
        },
      })
    imported.assertStatus(201)
    const botId = imported.body().bot.id as string
    ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)).assertStatus(200)
    const publicId = (await Bot.findOrFail(botId)).publicId!
    const createdWorkflow = await client
      .post('/workflows')
      .form({})
      .loginAs(admin)
      .withCsrfToken()
      .redirects(0)
    createdWorkflow.assertStatus(302)
    const workflowId = (await Workflow.query().where('workspace_id', workspace.id).firstOrFail()).id

    function sample(pattern: string, param: string) {
      if (param === 'id') {
        if (/\/(bots|typebots)\/:id/.test(pattern)) return botId
        if (/\/workflows\/:id/.test(pattern)) return workflowId
        if (/\/workspaces\/:id/.test(pattern)) return workspace.id
        return 'sample'
      }
      const known: Record<string, string> = {
        botId,
        typebotId: botId,
        workflowId,
        workspaceId: workspace.id,
        publicId,
        provider: 'github',
        section: 'workspace',
        tab: 'settings',
      }
      return known[param] ?? 'sample'
    }

    const routes = Object.values(router.toJSON())
      .flat()
      .filter((route) => route.methods.includes('GET'))
      // Transmit's event stream needs a client id and stays open; it reads nothing of ours.
      .filter((route) => !route.pattern.startsWith('/__transmit/'))
    assert.isAbove(routes.length, 50, 'the walk sees the routes')

    // Counted only while the server answers: loginAs writes its session record before the
    // request leaves the client.
    let answering = 0
    const nodeServer = server.getNodeServer()!
    const track = (_: IncomingMessage, response: ServerResponse) => {
      answering++
      response.once('close', () => answering--)
    }
    nodeServer.prependListener('request', track)
    const knex = db.connection().getWriteClient()
    let writes: string[] = []
    const listen = (query: { sql: string }) => {
      if (answering > 0 && WRITE.test(query.sql)) writes.push(query.sql.slice(0, 120))
    }
    knex.on('query', listen)
    const offenders: string[] = []
    try {
      for (const route of routes) {
        if (WRITES_BY_DESIGN[route.pattern]) continue
        const url = route.pattern
          .replace(/:(\w+)\??/g, (_, name: string) =>
            encodeURIComponent(sample(route.pattern, name))
          )
          .replace(/\*/g, 'sample')
        // Twice: a first visit may warm caches that a write-free second one must not need.
        for (const attempt of [1, 2]) {
          writes = []
          const response = await client
            .get(url)
            .header('Accept', attempt === 1 ? 'text/html' : 'application/json')
            .loginAs(admin)
            .redirects(0)
          if (writes.length) {
            offenders.push(`GET ${route.pattern} (${response.status()}): ${writes.join(' | ')}`)
            break
          }
        }
      }
    } finally {
      knex.removeListener('query', listen)
      nodeServer.removeListener('request', track)
    }
    assert.deepEqual(offenders, [])
  }).timeout(180_000)
})
