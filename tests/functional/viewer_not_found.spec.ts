import { test } from '@japa/runner'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * A visitor opening a public URL with no published bot behind it gets the visitor
 * surface's own not found page: a 404 in plain HTML, in the visitor's language, with no
 * cookie and nothing of the dashboard (docs/architecture.md, "The visitor surface").
 */

function setCookies(response: { headers(): Record<string, unknown> }) {
  const value = response.headers()['set-cookie']
  return Array.isArray(value) ? (value as string[]) : value ? [String(value)] : []
}

function assertVisitorNotFound(
  assert: import('@japa/assert').Assert,
  response: { status(): number; text(): string; headers(): Record<string, unknown> }
) {
  assert.equal(response.status(), 404)
  assert.deepEqual(setCookies(response), [], 'no session, no XSRF-TOKEN')
  const html = response.text()
  assert.include(String(response.headers()['content-type']), 'text/html')
  assert.include(html, 'data-testid="viewer-not-found"')
  // Nothing of the dashboard (its entry, Inertia's page object) and no script at all.
  assert.notInclude(html, 'app.tsx')
  assert.notMatch(html, /\/assets\/app-[^"]*\.js/)
  assert.notInclude(html, 'data-page=')
  assert.notInclude(html, '<script')
}

test.group('Visitor surface: bot not found', (group) => {
  let token: string
  let workspaceId: string
  group.setup(async () => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    workspaceId = (await firstWorkspaceOf(user)).id
    token = (await new CreateApiToken().handle(user, `not-found-${Date.now()}`)).value
  })

  test('a public id with no bot answers 404 with its own page', async ({ client, assert }) => {
    const response = await client.get(`/no-such-bot-${Date.now()}`)
    assertVisitorNotFound(assert, response)
    assert.include(response.text(), '<title>Bot not found</title>')
    assert.include(response.text(), 'This bot does not exist or is no longer published.')
    assert.include(response.text(), '<html lang="en">')
    assert.match(String(response.header('content-security-policy')), /default-src 'none'/)
  })

  test("in the visitor's language, from the chat's strings", async ({ client, assert }) => {
    const response = await client
      .get(`/no-such-bot-${Date.now()}`)
      .header('Accept-Language', 'fr-FR,fr;q=0.9,en;q=0.5')
    assertVisitorNotFound(assert, response)
    assert.include(response.text(), '<html lang="fr">')
    assert.include(response.text(), '<title>Bot introuvable</title>')
    // A language without a catalogue falls back to English.
    const other = await client.get(`/no-such-bot-${Date.now()}`).header('Accept-Language', 'ja')
    assert.include(other.text(), '<title>Bot not found</title>')
  })

  test('an unpublished bot, also in the embed iframe', async ({ client, assert }) => {
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({
        workspaceId,
        bot: {
          version: '6',
          name: 'Soon gone',
          groups: [],
          events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
          edges: [],
          variables: [],
          theme: {},
          settings: {},
        },
      })
    created.assertStatus(201)
    const id = created.body().bot.id as string
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
    const publicId = (await Bot.findOrFail(id)).publicId!
    ;(await client.get(`/${publicId}`)).assertStatus(200)
    ;(await client.post(`/api/v1/bots/${id}/unpublish`).bearerToken(token)).assertStatus(200)

    const page = await client.get(`/${publicId}`)
    assertVisitorNotFound(assert, page)
    assert.include(page.text(), 'background:#fff')
    // The embed's iframe lets the host page show through.
    const framed = await client.get(`/${publicId}?embedded=1`)
    assertVisitorNotFound(assert, framed)
    assert.include(framed.text(), 'background:transparent')
  }).timeout(30_000)
})
