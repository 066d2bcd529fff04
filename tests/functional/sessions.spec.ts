import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import User from '#models/user'
import { CLI_ACTOR } from '#actions/admin/administer_plans'
import { resetTwoFactor } from '#actions/admin/reset_two_factor'
import { newTotpSecret, sealSecret } from '#services/auth/two_factor'
import { CreateBot } from '#actions/bots/create_bot'
import UserSession from '#models/user_session'
import WorkspaceMember from '#models/workspace_member'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { openSession } from '#services/auth/user_sessions'
import { SESSION_RECORD_KEY } from '#services/auth/web_session_guard'
import { createUser, firstWorkspaceOf, lastMagicLink, uniqueEmail } from '#tests/helpers'
import { CookieJar, startAppProcess, type AppProcess } from '#tests/functional/app_process'

/**
 * Sessions that end (docs/security.md, "Sessions"): sign-out, "sign out of all devices", an
 * admin's reset of the second factor and removal from a workspace take effect on the next
 * request, and a request is authenticated by exactly one of its session cookie or its token.
 */

/** Signs in through the real flow (form, mailed link) in a cookie jar of its own. */
async function signIn(app: AppProcess, email: string) {
  const jar = new CookieJar(app.url)
  await jar.fetch('/signin')
  const sent = await jar.fetch('/signin', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  })
  if (sent.status !== 302) throw new Error(`sign-in form answered ${sent.status}`)
  const link = await lastMagicLink(email)
  const landed = await jar.fetch(link.path)
  if (landed.headers.get('location') !== '/bots') {
    throw new Error(`the sign-in link led to ${landed.headers.get('location')}`)
  }
  return jar
}

const opensBots = async (jar: CookieJar) => (await jar.fetch('/bots')).status === 200

/** A second device of a signed-in user, for the test client (memory session store). */
async function device(user: User, extra: Record<string, unknown> = {}) {
  const record = await openSession(user.id)
  return { auth_web: user.id, [SESSION_RECORD_KEY]: record.id, ...extra }
}

test.group('Sessions with the cookie store (the app in its own process)', (group) => {
  let app: AppProcess
  group.setup(async () => {
    app = await startAppProcess({ SESSION_DRIVER: 'cookie' })
    return () => app.stop()
  })

  test('a copy of the cookie taken before logout no longer opens /bots', async ({ assert }) => {
    const jar = await signIn(app, uniqueEmail('logout'))
    assert.isTrue(await opensBots(jar))
    const copy = jar.copy()

    const out = await jar.fetch('/logout', { method: 'POST' })
    assert.equal(out.headers.get('location'), '/signin')

    const replay = await copy.fetch('/bots')
    assert.equal(replay.status, 302)
    assert.match(replay.headers.get('location') ?? '', /^\/signin/)
  }).timeout(90_000)

  test('"sign out of all devices" ends the sessions of every browser', async ({ assert }) => {
    const email = uniqueEmail('everywhere')
    const laptop = await signIn(app, email)
    const phone = await signIn(app, email)
    const other = await signIn(app, uniqueEmail('bystander'))
    assert.isTrue(await opensBots(laptop))
    assert.isTrue(await opensBots(phone))

    const out = await laptop.fetch('/logout/everywhere', { method: 'POST' })
    assert.equal(out.headers.get('location'), '/signin')

    assert.isFalse(await opensBots(phone))
    assert.isFalse(await opensBots(laptop))
    // Someone else's session is untouched.
    assert.isTrue(await opensBots(other))
  }).timeout(90_000)

  test("an admin's 2FA reset signs out every browser of the person; a new sign-in works", async ({
    assert,
  }) => {
    const email = uniqueEmail('reset-2fa')
    const laptop = await signIn(app, email)
    const other = await signIn(app, uniqueEmail('bystander'))
    // The person has turned two-factor sign-in on since (as the settings would).
    const user = await User.findByOrFail('email', email)
    user.twoFactorSecret = sealSecret(newTotpSecret())
    user.twoFactorEnabledAt = DateTime.now()
    await user.save()
    assert.isTrue(await opensBots(laptop))

    assert.isTrue(await resetTwoFactor(CLI_ACTOR, user))

    const page = await laptop.fetch('/bots')
    assert.equal(page.status, 302)
    assert.match(page.headers.get('location') ?? '', /^\/signin/)
    const api = await laptop.fetch('/api/onboarding/checklist', {
      headers: { accept: 'application/json' },
    })
    assert.equal(api.status, 401)
    assert.isTrue(await opensBots(other))
    // The link alone signs in again (signIn checks it lands on /bots).
    assert.isTrue(await opensBots(await signIn(app, email)))
  }).timeout(90_000)

  test('a logout sent with an Authorization header (no CSRF token) signs nobody out', async ({
    assert,
  }) => {
    const jar = await signIn(app, uniqueEmail('forged-logout'))
    const headers = { authorization: 'Bearer anything' }
    // Without the XSRF header the jar would add, as a script or another site would send it.
    const xsrf = jar.cookies.get('XSRF-TOKEN')!
    jar.cookies.delete('XSRF-TOKEN')
    await jar.fetch('/logout', { method: 'POST', headers })
    jar.cookies.set('XSRF-TOKEN', xsrf)
    assert.isTrue(await opensBots(jar))
  }).timeout(90_000)
})

test.group('Sessions', () => {
  test('sign out of all devices ends every session of the user, not of others', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const someone = await createUser()
    const laptop = await device(user)
    const phone = await device(user)
    const theirs = await device(someone)

    ;(await client.get('/bots').withSession(phone).redirects(0)).assertStatus(200)
    // CSRF applies: a cross-site form cannot sign anyone out.
    await client.post('/logout/everywhere').withSession(laptop).redirects(0)
    assert.equal((await UserSession.query().where('user_id', user.id)).length, 2)
    ;(await client.get('/bots').withSession(phone).redirects(0)).assertStatus(200)

    const out = await client
      .post('/logout/everywhere')
      .withSession(laptop)
      .withCsrfToken()
      .redirects(0)
    out.assertHeader('location', '/signin')
    assert.lengthOf(await UserSession.query().where('user_id', user.id), 0)

    const phoneAfter = await client.get('/bots').withSession(phone).redirects(0)
    phoneAfter.assertStatus(302)
    assert.match(phoneAfter.header('location') ?? '', /^\/signin/)
    ;(await client.get('/bots').withSession(theirs).redirects(0)).assertStatus(200)
    // Five page renders right after the group above stopped its app process: ~28 s when busy.
  }).timeout(90_000)

  test('a session whose record is gone or expired, or of another user, signs nobody in', async ({
    client,
  }) => {
    const user = await createUser()
    const other = await createUser()
    const otherRecord = await openSession(other.id)
    const stolen = { auth_web: user.id, [SESSION_RECORD_KEY]: otherRecord.id }
    ;(await client.get('/bots').withSession(stolen).redirects(0)).assertStatus(302)
    ;(await client.get('/bots').withSession({ auth_web: user.id }).redirects(0)).assertStatus(302)

    const expired = await openSession(user.id)
    expired.expiresAt = expired.expiresAt.minus({ days: 31 })
    await expired.save()
    const withExpired = { auth_web: user.id, [SESSION_RECORD_KEY]: expired.id }
    ;(await client.get('/bots').withSession(withExpired).redirects(0)).assertStatus(302)
  })

  test('removal from a workspace takes effect on the next request', async ({ client, assert }) => {
    const owner = await createUser()
    const member = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: member.id, role: 'MEMBER' })
    const bot = await new CreateBot().handle(owner, workspace, { name: 'Shared bot' })
    const session = await device(member, { currentWorkspaceId: workspace.id })

    const before = await client
      .get(`/api/v1/workspaces/${workspace.id}/bots`)
      .withSession(session)
      .header('accept', 'application/json')
    before.assertStatus(200)

    await client
      .delete(`/workspaces/${workspace.id}/members/${member.id}`)
      .loginAs(owner)
      .withCsrfToken()
      .header('accept', 'application/json')

    const list = await client
      .get(`/api/v1/workspaces/${workspace.id}/bots`)
      .withSession(session)
      .header('accept', 'application/json')
    list.assertStatus(404)
    const rename = await client
      .patch(`/bots/${bot.id}`)
      .json({ name: 'Taken over' })
      .withSession(session)
      .withCsrfToken()
      .header('accept', 'application/json')
    rename.assertStatus(404)
    await bot.refresh()
    assert.equal(bot.name, 'Shared bot')

    // The dashboard falls back to the member's own workspace, without the removed one's bots.
    const page = await client.get('/bots').withSession(session).withInertia()
    page.assertStatus(200)
    assert.notEqual((page.inertiaProps.currentWorkspace as any)?.id, workspace.id)
    assert.notInclude(
      (page.inertiaProps.bots as any[]).map((b) => b.id),
      bot.id
    )
  })
})

test.group('One of session or token', () => {
  test('a cookie request with any Authorization header is not signed in by the cookie', async ({
    client,
    assert,
  }) => {
    const victim = await createUser()
    const session = await device(victim)

    // What a script on the app's origin tried: an Authorization header to skip CSRF.
    const stolen = await client
      .post('/settings/account/keys')
      .header('authorization', 'Bearer nothing')
      .header('accept', 'application/json')
      .json({ name: 'exfiltrated' })
      .withSession(session)
    // Refused either way: CSRF no longer steps aside for the header (403), and the cookie
    // does not sign the request in (401/302).
    assert.oneOf(stolen.status(), [401, 302, 403])
    const tokens = await client.get('/settings/account/keys').withSession(session).withInertia()
    assert.lengthOf(tokens.inertiaProps.apiTokens, 0)

    // The same without the header needs the CSRF token.
    const plain = await client
      .post('/settings/account/keys')
      .header('accept', 'application/json')
      .json({ name: 'exfiltrated' })
      .withSession(session)
    plain.assertStatus(403)
  })

  test("a valid token with another user's cookie acts as the token's user only", async ({
    client,
    assert,
  }) => {
    const cookieUser = await createUser()
    const tokenUser = await createUser()
    const token = (await new CreateApiToken().handle(tokenUser, 'one-of')).value
    const me = await client
      .get('/api/v1/me')
      .bearerToken(token)
      .withSession(await device(cookieUser))
    me.assertStatus(200)
    assert.equal(me.body().user.id, tokenUser.id)

    // Pages need the session: a token does not open them, whatever the cookie says.
    const page = await client
      .get('/bots')
      .bearerToken(token)
      .withSession(await device(cookieUser))
      .redirects(0)
    page.assertStatus(302)

    // Without a token, the API takes the session.
    const bySession = await client.get('/api/v1/me').withSession(await device(cookieUser))
    bySession.assertStatus(200)
  })
})
