import { test } from '@japa/runner'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

/** Bad input answers with a message, never a 500. */
test.group('Bad input', () => {
  test('malformed JSON, unknown ids, wrong enum values and oversized text', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)

    const malformed = await client
      .patch(`/api/users/${user.id}`)
      .header('content-type', 'application/json')
      .header('accept', 'application/json')
      .form('{"name": ')
      .loginAs(user)
      .withCsrfToken()
    assert.isBelow(malformed.status(), 500)

    const role = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: 'someone@example.com', role: 'KING' })
      .loginAs(user)
      .withCsrfToken()
    role.assertStatus(422)

    for (const path of ['/workspaces/nope', '/workspaces/nope/members/nope']) {
      const missing = await client
        .patch(path)
        .header('accept', 'application/json')
        .json({ name: 'x', role: 'MEMBER' })
        .loginAs(user)
        .withCsrfToken()
      missing.assertStatus(404)
    }

    const long = await client
      .post('/workspaces')
      .header('accept', 'application/json')
      .json({ name: 'x'.repeat(5000) })
      .loginAs(user)
      .withCsrfToken()
    long.assertStatus(422)

    const token = await client
      .post('/settings/account/keys')
      .header('accept', 'application/json')
      .json({ name: '' })
      .loginAs(user)
      .withCsrfToken()
    token.assertStatus(422)
  })
})
