import { test } from '@japa/runner'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

/**
 * CSRF is skipped by route, never by header (docs/security.md, issue 27): token routes
 * (/api/v1, which read no session cookie when a token comes) skip it; session routes always
 * check it, whatever Authorization header a request carries.
 */
const CSRF_REFUSED = { message: 'Invalid or missing CSRF token. Reload the page and try again.' }

test.group('CSRF exemptions by route', () => {
  test('a session route with a bogus Authorization header and no CSRF token is refused', async ({
    client,
  }) => {
    const user = await createUser()
    for (const [path, body] of [
      ['/logout/everywhere', {}],
      ['/signin/two-factor', { code: '123456' }],
      ['/workflows', { name: 'Forged' }],
    ] as const) {
      const forged = await client
        .post(path)
        .loginAs(user)
        .header('Authorization', 'Bearer forged')
        .header('Accept', 'application/json')
        .json(body)
      forged.assertStatus(403)
      forged.assertBody(CSRF_REFUSED)
    }
  })

  test('a real API token does not exempt a session route either', async ({ client }) => {
    const user = await createUser()
    const token = (await new CreateApiToken().handle(user, `csrf-${Date.now()}`)).value
    const refused = await client
      .post('/logout/everywhere')
      .loginAs(user)
      .bearerToken(token)
      .header('Accept', 'application/json')
    refused.assertStatus(403)
    refused.assertBody(CSRF_REFUSED)
  })

  test('token routes take the token without a CSRF token; the session there still needs one', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `csrf-${Date.now()}`)).value
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({
        workspaceId: workspace.id,
        bot: {
          version: '6',
          name: 'By token',
          groups: [],
          events: [],
          edges: [],
          variables: [],
          theme: {},
          settings: {},
        },
      })
    created.assertStatus(201)
    const id = created.body().bot.id

    // The same route with the session cookie and no token: CSRF applies.
    const bySession = await client
      .patch(`/api/v1/bots/${id}`)
      .loginAs(user)
      .header('Accept', 'application/json')
      .json({ name: 'Forged' })
    bySession.assertStatus(403)
    bySession.assertBody(CSRF_REFUSED)
    const withCsrf = await client
      .patch(`/api/v1/bots/${id}`)
      .loginAs(user)
      .withCsrfToken()
      .json({ name: 'Mine' })
    withCsrf.assertStatus(200)
    assert.equal(withCsrf.body().bot.name, 'Mine')
  })
})
