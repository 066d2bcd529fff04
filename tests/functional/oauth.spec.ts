import { test } from '@japa/runner'
import User from '#models/user'
import OauthAccount from '#models/oauth_account'
import { startGithubStandIn } from '#tests/stand_ins/github'
import { createUser, uniqueEmail } from '#tests/helpers'
import { workspacesOf } from '#services/workspace_access'
import env from '#start/env'

// The stand-in listens where the app's GitHub settings point (.env.test; each `npm test` shard
// moves it: docs/testing.md, "Shards").
const PORT = Number(new URL(env.get('GITHUB_URL') ?? 'http://127.0.0.1:3399').port)

test.group('OAuth sign-in (GitHub, against a local stand-in)', (group) => {
  let github: Awaited<ReturnType<typeof startGithubStandIn>>
  group.setup(async () => {
    github = await startGithubStandIn(PORT, 'test-github-client', 'test-github-secret')
    return () => github.close()
  })

  async function startFlow(client: any) {
    const redirect = await client.get('/auth/github/redirect').redirects(0)
    redirect.assertStatus(302)
    const location = new URL(redirect.header('location'))
    return { location, state: location.searchParams.get('state')! }
  }

  test('the button shows only for configured providers', async ({ client, assert }) => {
    const page = await client.get('/signin').withInertia()
    assert.deepEqual(page.inertiaProps.oauthProviders, ['github'])
    const google = await client.get('/auth/google/redirect').redirects(0)
    google.assertStatus(404)
  })

  test('a first GitHub sign-in creates the account and its workspace', async ({
    client,
    assert,
  }) => {
    const { location, state } = await startFlow(client)
    assert.equal(
      location.origin + location.pathname,
      `http://127.0.0.1:${PORT}/login/oauth/authorize`
    )
    assert.equal(location.searchParams.get('client_id'), 'test-github-client')

    const email = uniqueEmail('octo')
    const code = github.approve({ id: 4242, login: 'octo', name: 'Octo Cat', email })
    const callback = await client
      .get(`/auth/github/callback?code=${code}&state=${state}`)
      .withEncryptedCookie('gh_oauth_state', state)
      .redirects(0)
    callback.assertHeader('location', '/bots')

    const user = await User.findByOrFail('email', email)
    assert.equal(user.name, 'Octo Cat')
    assert.deepEqual(
      (await workspacesOf(user)).map((w) => w.name),
      ["Octo Cat's workspace"]
    )
    const link = await OauthAccount.query().where('user_id', user.id).firstOrFail()
    assert.equal(link.provider, 'github')
    assert.equal(link.providerUserId, '4242')

    // The second time the same GitHub account signs the same user in.
    const again = await startFlow(client)
    const code2 = github.approve({ id: 4242, login: 'octo', name: 'Octo Cat', email })
    const second = await client
      .get(`/auth/github/callback?code=${code2}&state=${again.state}`)
      .withEncryptedCookie('gh_oauth_state', again.state)
      .redirects(0)
    second.assertHeader('location', '/bots')
    assert.lengthOf(await User.query().where('email', email), 1)
  })

  test('"Email not found" when GitHub gives no e-mail', async ({ client }) => {
    const { state } = await startFlow(client)
    const code = github.approve({ id: 7, login: 'ghost', name: null, email: null, emails: [] })
    const callback = await client
      .get(`/auth/github/callback?code=${code}&state=${state}`)
      .withEncryptedCookie('gh_oauth_state', state)
      .redirects(0)
    callback.assertHeader('location', '/signin')
    callback.assertFlashMessage('toast', {
      type: 'error',
      title: 'Email not found',
      description: 'Try a different account.',
    })
  })

  test('an account first made with another provider must sign in with it', async ({ client }) => {
    const user = await createUser()
    await OauthAccount.create({ userId: user.id, provider: 'google', providerUserId: 'g-1' })
    const { state } = await startFlow(client)
    const code = github.approve({ id: 99, login: 'x', name: 'X', email: user.email })
    const callback = await client
      .get(`/auth/github/callback?code=${code}&state=${state}`)
      .withEncryptedCookie('gh_oauth_state', state)
      .redirects(0)
    callback.assertFlashMessage('toast', {
      type: 'error',
      title: 'An error occurred',
      description: 'To confirm your identity, sign in with the account you used originally.',
    })
  })

  test('denied access and a state mismatch are refused', async ({ client }) => {
    const denied = await client.get('/auth/github/callback?error=access_denied').redirects(0)
    denied.assertFlashMessage('toast', {
      type: 'error',
      title: 'Unauthorized',
      description: 'Access was denied. Try a different account.',
    })
    const { state } = await startFlow(client)
    const code = github.approve({ id: 5, login: 'y', name: 'Y', email: uniqueEmail() })
    const mismatch = await client
      .get(`/auth/github/callback?code=${code}&state=forged`)
      .withEncryptedCookie('gh_oauth_state', state)
      .redirects(0)
    mismatch.assertFlashMessage('toast', {
      type: 'error',
      title: 'An error occurred',
      description: 'The sign-in request expired. Please try again.',
    })
  })
})
