import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import env from '#start/env'
import User from '#models/user'
import LoginToken from '#models/login_token'
import DevMail from '#models/dev_mail'
import WorkspaceMember from '#models/workspace_member'
import { lastMagicLink, uniqueEmail } from '#tests/helpers'
import { workspacesOf } from '#services/workspace_access'

test.group('Sign-in redirects', () => {
  test('a page without a session goes to /signin with redirectPath', async ({ client }) => {
    const response = await client.get('/workflows?x=1').redirects(0)
    response.assertStatus(302)
    response.assertHeader(
      'location',
      `/signin?redirectPath=${encodeURIComponent('/workflows?x=1')}`
    )
  })

  test('the public pages answer without a session', async ({ client }) => {
    for (const path of ['/signin', '/register', '/forgot-password', '/reset-password']) {
      const response = await client.get(path).withInertia()
      response.assertStatus(200)
    }
  })

  test('/bots/{id}/edit, /theme and /settings are exempt from the sign-in redirect', async ({
    client,
    assert,
  }) => {
    for (const tab of ['edit', 'theme', 'settings']) {
      const response = await client.get(`/bots/some-bot/${tab}`).redirects(0)
      assert.notEqual(
        response.header('location') ?? '',
        `/signin?redirectPath=${encodeURIComponent(`/bots/some-bot/${tab}`)}`
      )
    }
  })

  test('API calls without a session get 401 JSON', async ({ client }) => {
    const response = await client.get('/api/v1/me')
    response.assertStatus(401)
    response.assertBodyContains({ message: 'Unauthorized' })
  })
})

test.group('Magic link', () => {
  test('registering mails a link that creates the account and its first workspace', async ({
    client,
    assert,
  }) => {
    const email = uniqueEmail('Ada')
    const post = await client
      .post('/register')
      .form({ email, name: 'Ada' })
      .withCsrfToken()
      .redirects(0)
    post.assertStatus(302)
    post.assertHeader('location', `/signin/check-email?email=${encodeURIComponent(email)}`)
    assert.isNull(await User.findBy('email', email.toLowerCase()))

    const { path } = await lastMagicLink(email)
    const open = await client.get(path).redirects(0)
    open.assertStatus(302)
    open.assertHeader('location', '/bots')

    const user = await User.findByOrFail('email', email.toLowerCase())
    assert.equal(user.name, 'Ada')
    assert.equal(user.plan, 'FREE')
    const workspaces = await workspacesOf(user)
    assert.deepEqual(
      workspaces.map((w) => w.name),
      ["Ada's workspace"]
    )
    assert.equal(workspaces[0].$extras.member_role, 'ADMIN')
  })

  test('without a name the first workspace is named after the e-mail', async ({
    client,
    assert,
  }) => {
    const email = uniqueEmail()
    await client.post('/signin').form({ email }).withCsrfToken().redirects(0)
    const { path } = await lastMagicLink(email)
    await client.get(path).redirects(0)
    const user = await User.findByOrFail('email', email)
    assert.deepEqual(
      (await workspacesOf(user)).map((w) => w.name),
      [`${email.split('@')[0]}'s workspace`]
    )
  })

  test('a link signs in once, then the session opens the dashboard', async ({ client, assert }) => {
    const email = uniqueEmail()
    await client.post('/signin').form({ email }).withCsrfToken().redirects(0)
    const { path } = await lastMagicLink(email)
    const first = await client.get(path).redirects(0)
    first.assertHeader('location', '/bots')
    const cookies = first.cookies()
    assert.exists(cookies['flowcraft-session'])

    const again = await client.get(path).redirects(0)
    again.assertHeader('location', '/signin')
    again.assertFlashMessage('toast', {
      type: 'error',
      title: 'This sign-in link is invalid or has expired',
      description: 'Ask for a new link below.',
    })
  })

  test('an expired link is refused', async ({ client }) => {
    const email = uniqueEmail()
    await client.post('/signin').form({ email }).withCsrfToken().redirects(0)
    const { path } = await lastMagicLink(email)
    for (const token of await LoginToken.query().where('email', email)) {
      token.expiresAt = DateTime.now().minus({ minutes: 1 })
      await token.save()
    }
    const response = await client.get(path).redirects(0)
    response.assertHeader('location', '/signin')
  })

  test('the redirectPath is honoured, and only same-site paths are kept', async ({ client }) => {
    const email = uniqueEmail()
    await client
      .post('/signin')
      .form({ email, redirectPath: '/workflows' })
      .withCsrfToken()
      .redirects(0)
    const ok = await client.get((await lastMagicLink(email)).path).redirects(0)
    ok.assertHeader('location', '/workflows')

    await client
      .post('/signin')
      .form({ email, redirectPath: '//evil.example/x' })
      .withCsrfToken()
      .redirects(0)
    const safe = await client.get((await lastMagicLink(email)).path).redirects(0)
    safe.assertHeader('location', '/bots')
  })

  test('a bad e-mail answers with the field message and sends nothing', async ({
    client,
    assert,
  }) => {
    const before = await DevMail.query().count('* as total')
    const response = await client
      .post('/signin')
      .header('referer', '/signin')
      .form({ email: 'not-an-email' })
      .withCsrfToken()
      .redirects(0)
    response.assertStatus(302)
    response.assertFlashMessage('inputErrorsBag', {
      email: ['The email field must be a valid email address'],
    })
    const after = await DevMail.query().count('* as total')
    assert.equal(after[0].$extras.total, before[0].$extras.total)
  })

  test('sign-ups can be disabled, invited people may still join', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { createUser, firstWorkspaceOf } = await import('#tests/helpers')
    const owner = await createUser()
    env.set('DISABLE_SIGNUP', true)
    cleanup(() => env.set('DISABLE_SIGNUP', false))

    const stranger = uniqueEmail()
    const refused = await client
      .post('/signin')
      .header('referer', '/signin')
      .form({ email: stranger })
      .withCsrfToken()
      .redirects(0)
    refused.assertFlashMessage('toast', {
      type: 'error',
      title: 'Unauthorized',
      description: 'Sign-ups are disabled.',
    })
    assert.isNull(await User.findBy('email', stranger))

    const json = await client
      .post('/signin')
      .json({ email: stranger })
      .header('accept', 'application/json')
      .withCsrfToken()
    json.assertStatus(403)

    const invited = uniqueEmail('invited')
    await client
      .post(`/workspaces/${(await firstWorkspaceOf(owner)).id}/invitations`)
      .loginAs(owner)
      .form({ email: invited })
      .withCsrfToken()
      .redirects(0)
    const accepted = await client
      .post('/signin')
      .form({ email: invited })
      .withCsrfToken()
      .redirects(0)
    accepted.assertHeader('location', `/signin/check-email?email=${encodeURIComponent(invited)}`)
    await client.get((await lastMagicLink(invited)).path).redirects(0)
    assert.isNotNull(await User.findBy('email', invited))
  })

  test('too many sign-in requests are refused', async ({ client }) => {
    const email = uniqueEmail()
    for (let i = 0; i < 10; i++) {
      const ok = await client.post('/signin').form({ email }).withCsrfToken().redirects(0)
      ok.assertStatus(302)
    }
    const refused = await client
      .post('/signin')
      .header('referer', '/signin')
      .form({ email })
      .withCsrfToken()
      .redirects(0)
    refused.assertFlashMessage('toast', {
      type: 'error',
      title: 'Too many requests. Try again later',
    })
  })

  test('logout goes to /signin with "Logged out successfully"', async ({ client }) => {
    const email = uniqueEmail()
    await client.post('/signin').form({ email }).withCsrfToken().redirects(0)
    const user = await User.findBy('email', email)
    const signedIn = user ?? (await (await import('#tests/helpers')).createUser({ email }))
    const response = await client.post('/logout').loginAs(signedIn).withCsrfToken().redirects(0)
    response.assertHeader('location', '/signin')
    response.assertFlashMessage('toast', { type: 'success', title: 'Logged out successfully' })
  })

  test('an invitation is claimed at sign-up', async ({ client, assert }) => {
    const { createUser, firstWorkspaceOf } = await import('#tests/helpers')
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const invitee = uniqueEmail('invitee')
    await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .loginAs(owner)
      .form({ email: invitee, role: 'GUEST' })
      .withCsrfToken()
      .redirects(0)

    await client.post('/signin').form({ email: invitee }).withCsrfToken().redirects(0)
    await client.get((await lastMagicLink(invitee)).path).redirects(0)
    const user = await User.findByOrFail('email', invitee)
    const member = await WorkspaceMember.query()
      .where('workspace_id', workspace.id)
      .where('user_id', user.id)
      .firstOrFail()
    assert.equal(member.role, 'GUEST')
  })
})
