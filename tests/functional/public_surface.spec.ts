import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { appUrl } from '#config/app'
import { overrideViewerUrl } from '#services/public_surface'
import { privateKey, putFile } from '#services/storage'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * Where bot-authored code runs (docs/security.md): the public surface (public bot page,
 * /embed.js, chat API, the preview's script runner) sets no cookie and, on a host where
 * builders sign in, serves the page as an opaque origin; with VIEWER_URL it lives on its
 * own host; the builder's pages carry a Content-Security-Policy.
 */

interface Owner {
  token: string
  workspaceId: string
}

let owner: Owner

async function publish(client: ApiClient, bot: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(owner.token)
    .json({ workspaceId: owner.workspaceId, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(owner.token)
  published.assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

function greetingBot(name: string, settings: Record<string, unknown> = {}) {
  return {
    version: '6',
    name,
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          {
            id: 'b1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hi there' }] }] },
          },
          { id: 'b2', type: 'text input', options: { labels: { placeholder: 'Name' } } },
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [],
    theme: {},
    settings,
  }
}

const HEAD_CODE = '<script>window.__headCodeRan = true</script>'

function setCookies(response: { headers(): Record<string, unknown> }) {
  const value = response.headers()['set-cookie']
  return Array.isArray(value) ? (value as string[]) : value ? [String(value)] : []
}

const viewerHost = () => `viewer-${process.env.PORT}.localhost`
const appHost = () => new URL(appUrl).host

test.group('Public surface: no session, opaque origin', (group) => {
  group.setup(async () => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `surface-${Date.now()}`)).value
    owner = { token, workspaceId: workspace.id }
  })

  test('the public bot page is a sandbox without allow-same-origin and sets no cookie', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(
      client,
      greetingBot('Support bot', { metadata: { customHeadCode: HEAD_CODE } })
    )
    const response = await client.get(`/${publicId}`)
    response.assertStatus(200)
    const csp = String(response.header('content-security-policy'))
    assert.match(csp, /^sandbox /)
    assert.include(csp, 'allow-scripts')
    assert.notInclude(csp, 'allow-same-origin')
    assert.notInclude(csp, 'allow-top-navigation')
    assert.deepEqual(setCookies(response), [], 'no session, no XSRF-TOKEN')
    // The head code is there (it is the author's page), inside that sandbox.
    assert.include(response.text(), HEAD_CODE)
    // Its own title, not the app's.
    assert.include(response.text(), '<title>Support bot</title>')
    assert.notInclude(response.text(), '>Flowcraft</title>')
  })

  test('the title is the metadata title when there is one', async ({ client, assert }) => {
    const publicId = await publish(
      client,
      greetingBot('Internal name', { metadata: { title: 'Book a table' } })
    )
    const response = await client.get(`/${publicId}`)
    assert.include(response.text(), '<title>Book a table</title>')
  })

  test('/embed.js, startChat and continueChat set no cookie and answer Origin: null', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, greetingBot('Cookieless'))
    const embed = await client.get('/embed.js')
    embed.assertStatus(200)
    assert.deepEqual(setCookies(embed), [])

    // The sandboxed page's requests come from an opaque origin: a preflight, then the call.
    const preflight = await client
      .options(`/api/v1/typebots/${publicId}/startChat`)
      .header('Origin', 'null')
      .header('Access-Control-Request-Method', 'POST')
      .header('Access-Control-Request-Headers', 'content-type')
    preflight.assertStatus(204)
    assert.equal(preflight.header('access-control-allow-origin'), 'null')
    assert.isUndefined(preflight.header('access-control-allow-credentials'))

    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .header('Origin', 'null')
      .json({})
    start.assertStatus(200)
    assert.equal(start.header('access-control-allow-origin'), 'null')
    assert.isUndefined(start.header('access-control-allow-credentials'))
    assert.deepEqual(setCookies(start), [])

    const next = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .header('Origin', 'null')
      .json({ message: 'Ada' })
    next.assertStatus(200)
    assert.deepEqual(setCookies(next), [])
  })

  test('builder routes answer no cross-origin request; the API never with credentials', async ({
    client,
    assert,
  }) => {
    for (const origin of ['null', 'https://evil.test']) {
      const keys = await client
        .options('/settings/account/keys')
        .header('Origin', origin)
        .header('Access-Control-Request-Method', 'POST')
        .header('Access-Control-Request-Headers', 'content-type,authorization')
      assert.isUndefined(keys.header('access-control-allow-origin'), origin)
      const me = await client.get('/api/v1/me').header('Origin', origin)
      assert.equal(me.header('access-control-allow-origin'), origin)
      assert.isUndefined(me.header('access-control-allow-credentials'))
    }
  })

  test("the preview's script runner is an opaque origin with no cookie", async ({
    client,
    assert,
  }) => {
    const response = await client.get('/preview/script-runner')
    response.assertStatus(200)
    const csp = String(response.header('content-security-policy'))
    assert.match(csp, /^sandbox allow-scripts/)
    assert.notInclude(csp, 'allow-same-origin')
    assert.deepEqual(setCookies(response), [])
  })

  test('builder pages carry a CSP: scripts from here and with the nonce only', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    for (const page of [client.get('/signin'), client.get('/bots').loginAs(user)]) {
      const response = await page
      response.assertStatus(200)
      const csp = String(response.header('content-security-policy'))
      const script = /script-src ([^;]*)/.exec(csp)?.[1] ?? ''
      const nonce = /'nonce-([^']+)'/.exec(script)?.[1]
      assert.isString(nonce, csp)
      assert.notInclude(script, 'unsafe-inline')
      assert.notInclude(script, 'unsafe-eval')
      assert.notInclude(script, '*')
      assert.include(csp, "object-src 'none'")
      assert.include(csp, "frame-ancestors 'none'")
      // Every inline script the layout writes carries the nonce.
      const inline = response.text().match(/<script(?![^>]*\ssrc=)[^>]*>/g) ?? []
      assert.isAbove(inline.length, 0)
      for (const tag of inline) assert.include(tag, `nonce="${nonce}"`)
    }
  })

  test('a stored file opened without a session sets no cookie; a member still opens private ones', async ({
    client,
    assert,
  }) => {
    const path = await putFile(`public/surface/${Date.now()}.txt`, Buffer.from('hello'))
    // A plain request: the test client always sends a session cookie of its own.
    const visitor = await fetch(`http://127.0.0.1:${process.env.PORT}${path}`)
    assert.equal(visitor.status, 200)
    assert.equal(await visitor.text(), 'hello')
    assert.deepEqual(visitor.headers.getSetCookie(), [], 'no session, no XSRF-TOKEN for a visitor')

    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const secret = await putFile(privateKey(workspace.id, `${Date.now()}.txt`), Buffer.from('s'))
    ;(await client.get(secret)).assertStatus(403)
    const member = await client.get(secret).loginAs(user)
    member.assertStatus(200)
    assert.equal(member.text(), 's')
  })
})

test.group('Public surface: VIEWER_URL', (group) => {
  group.setup(async () => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `viewer-${Date.now()}`)).value
    owner = { token, workspaceId: workspace.id }
  })

  group.each.setup(() => overrideViewerUrl(`http://${viewerHost()}`))

  test('public pages, embed.js and the chat API answer on the viewer host', async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, greetingBot('On the viewer'))
    const page = await client.get(`/${publicId}`).header('Host', viewerHost())
    page.assertStatus(200)
    assert.include(page.text(), '<title>On the viewer</title>')
    // No builder can hold a session on this host: the page keeps its origin (storage,
    // location) and still sets no cookie.
    assert.isUndefined(page.header('content-security-policy'))
    assert.deepEqual(setCookies(page), [])

    const embed = await client.get('/embed.js').header('Host', viewerHost())
    embed.assertStatus(200)
    // Its iframes point at the viewer host wherever the script is loaded from.
    assert.include(embed.text(), `http://${viewerHost()}`)

    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .header('Host', viewerHost())
      .json({})
    start.assertStatus(200)
    assert.deepEqual(setCookies(start), [])
  })

  test("builder routes do not answer on the viewer host; bots move off the app's host", async ({
    client,
    assert,
  }) => {
    const publicId = await publish(client, greetingBot('Moved'))
    const user = await createUser()

    for (const path of ['/bots', '/signin', '/settings/account/profile', '/api/v1/me']) {
      const response = await client.get(path).header('Host', viewerHost()).redirects(0)
      response.assertStatus(302)
      assert.equal(response.header('location'), `${appUrl}${path}`)
      assert.deepEqual(setCookies(response), [])
    }
    const post = await client
      .post('/settings/account/keys')
      .header('Host', viewerHost())
      .loginAs(user)
      .withCsrfToken()
      .json({ name: 'stolen' })
    post.assertStatus(404)

    // On the app's host, a public page sends the visitor to the viewer host.
    const moved = await client.get(`/${publicId}?a=1`).header('Host', appHost()).redirects(0)
    moved.assertStatus(302)
    assert.equal(moved.header('location'), `http://${viewerHost()}/${publicId}?a=1`)
  })

  test("the app's session cookie is scoped to the app's host only", async ({ client, assert }) => {
    const response = await client.get('/signin').header('Host', appHost())
    response.assertStatus(200)
    const cookies = setCookies(response)
    assert.isAbove(cookies.length, 0)
    for (const cookie of cookies) {
      // No Domain attribute: the browser sends it back to this exact host, never to the
      // viewer host (docs/security.md, "Configuring the viewer host").
      assert.notMatch(cookie, /;\s*domain=/i, cookie)
    }
  })

  test('the share settings point at the viewer host', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client.get('/bots').loginAs(user).withInertia()
    response.assertStatus(200)
    assert.equal(response.inertiaProps.viewerUrl, `http://${viewerHost()}`)
  })
})
