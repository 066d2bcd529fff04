import { test } from '@japa/runner'
import env from '#start/env'
import TwoFactorRecoveryCode from '#models/two_factor_recovery_code'
import UserSession from '#models/user_session'
import { TWO_FACTOR_PENDING_KEY, TWO_FACTOR_VERIFIED_KEY } from '#services/auth/sign_in_gate'
import { SESSION_RECORD_KEY } from '#services/auth/web_session_guard'
import { startGithubStandIn } from '#tests/stand_ins/github'
import { createUser } from '#tests/helpers'
import {
  type Session,
  codeOf,
  settingsPost,
  enable,
  openMagicLink,
  submitCode,
  device,
  resetAttempts,
} from '#tests/two_factor_steps'

/*
 * Two-factor sign-in (docs/security.md, "Two-factor sign-in"): enabling from settings, the
 * code page after the magic link and OAuth, replay, recovery codes, the attempts limit,
 * GET /api/2fa/clearTwoFA and the admins' reset, and the sessions each of them ends.
 */

test.group('Two-factor sign-in: account settings', () => {
  test('setup shows a QR code and the secret; a right code turns it on with 10 codes', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    ;(await settingsPost(client, user, 'setup')).assertHeader(
      'location',
      '/settings/account/security'
    )
    const page = await client.get('/settings/account/security').loginAs(user).withInertia()
    const status = page.inertiaProps.twoFactor as any
    assert.isFalse(status.enabled)
    assert.match(status.setup.secret, /^[A-Z2-7]{16,}$/)
    assert.include(status.setup.uri, 'otpauth://totp/')
    assert.include(status.setup.uri, `secret=${status.setup.secret}`)
    assert.match(status.setup.qr, /^data:image\/png;base64,/)
    // The secret is stored encrypted.
    await user.refresh()
    assert.notInclude(user.twoFactorSecret!, status.setup.secret)
    assert.isNull(user.twoFactorEnabledAt)

    const wrong = await settingsPost(client, user, 'confirm', '000000')
    wrong.assertFlashMessage('toast', {
      type: 'error',
      title: 'That code is not right',
      description: 'Type the 6-digit code your authenticator app shows now.',
    })
    await user.refresh()
    assert.isNull(user.twoFactorEnabledAt)

    const right = await settingsPost(client, user, 'confirm', await codeOf(user))
    const codes = right.flashMessages().recoveryCodes as string[]
    assert.lengthOf(codes, 10)
    assert.lengthOf(new Set(codes), 10)
    for (const code of codes) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/)
    await user.refresh()
    assert.isNotNull(user.twoFactorEnabledAt)
    const stored = await TwoFactorRecoveryCode.query().where('user_id', user.id)
    assert.lengthOf(stored, 10)
    // Kept hashed: no plain code in the table.
    for (const row of stored) assert.notInclude(codes, row.codeHash)

    const after = await client.get('/settings/account/security').loginAs(user).withInertia()
    assert.deepInclude(after.inertiaProps.twoFactor as any, {
      enabled: true,
      recoveryCodesLeft: 10,
      setup: null,
    })
    assert.isTrue((after.inertiaProps.user as any).twoFactorEnabled)
  })

  test('regenerating the codes and turning it off need a current code', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const oldCodes = await enable(client, user)

    const refused = await settingsPost(client, user, 'disable', '123456')
    refused.assertFlashMessage('toast', {
      type: 'error',
      title: 'That code is not right',
      description: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
    })
    await user.refresh()
    assert.isNotNull(user.twoFactorEnabledAt)

    const regenerated = await settingsPost(client, user, 'recovery-codes', await codeOf(user))
    const newCodes = regenerated.flashMessages().recoveryCodes as string[]
    assert.lengthOf(newCodes, 10)
    assert.notSameMembers(newCodes, oldCodes)
    // The old codes are gone: one of them no longer turns 2FA off; a new one does.
    ;(await settingsPost(client, user, 'disable', oldCodes[0])).assertFlashMessage('toast', {
      type: 'error',
      title: 'That code is not right',
      description: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
    })
    const off = await settingsPost(client, user, 'disable', newCodes[3].toUpperCase())
    off.assertFlashMessage('toast', { type: 'success', title: 'Two-factor sign-in is off' })
    await user.refresh()
    assert.isNull(user.twoFactorEnabledAt)
    assert.isNull(user.twoFactorSecret)
    assert.lengthOf(await TwoFactorRecoveryCode.query().where('user_id', user.id), 0)
  })
})

test.group('Two-factor sign-in: turning it on', () => {
  test("signs out the person's other browsers, not the one that turned it on", async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const other = await device(user)
    const current = await device(user)
    const bystander = await device(await createUser())

    const post = (path: string, session: Session, code?: string) =>
      client
        .post(`/settings/account/two-factor/${path}`)
        .form(code === undefined ? {} : { code })
        .withSession(session)
        .withCsrfToken()
        .redirects(0)
    ;(await post('setup', current)).assertStatus(302)
    // Starting the setup changes nothing at sign-in yet.
    ;(await client.get('/bots').withSession(other).redirects(0)).assertStatus(200)
    const confirm = await post('confirm', current, await codeOf(user, -1))
    confirm.assertFlashMessage('toast', {
      type: 'success',
      title: 'Two-factor sign-in is on',
      description:
        'Your other signed-in browsers were signed out. Signing in again asks for a code.',
    })

    ;(await client.get('/bots').withSession(confirm.session()).redirects(0)).assertStatus(200)
    const signedOut = await client.get('/bots').withSession(other).redirects(0)
    assert.match(signedOut.header('location') ?? '', /^\/signin/)
    ;(await client.get('/bots').withSession(bystander).redirects(0)).assertStatus(200)
    const left = await UserSession.query().where('user_id', user.id)
    assert.deepEqual(
      left.map((record) => record.id),
      [current[SESSION_RECORD_KEY]]
    )
  })
})

test.group('Two-factor sign-in: the code page', (group) => {
  // Each test signs in more than once; a loaded machine makes the first ones slow.
  group.each.timeout(90_000)

  test('after the magic link nothing is open until the code is given', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await enable(client, user)
    const { response, session } = await openMagicLink(client, user, '/workflows')
    response.assertHeader('location', '/signin/two-factor')
    assert.isUndefined(session.auth_web)
    assert.equal((session[TWO_FACTOR_PENDING_KEY] as any).userId, user.id)

    // The half-way session opens no page and no API.
    const bots = await client.get('/bots').withSession(session).redirects(0)
    bots.assertStatus(302)
    assert.match(bots.header('location') ?? '', /^\/signin/)
    const me = await client.get('/api/v1/me').withSession(session)
    me.assertStatus(401)
    const patch = await client
      .patch(`/api/users/${user.id}`)
      .json({ name: 'Hijack' })
      .withSession(session)
      .withCsrfToken()
      .header('accept', 'application/json')
    patch.assertStatus(401)
    const settings = await client
      .post('/settings/account/two-factor/disable')
      .form({ code: '000000' })
      .withSession(session)
      .withCsrfToken()
      .redirects(0)
    assert.match(settings.header('location') ?? '', /^\/signin/)

    const page = await client.get('/signin/two-factor').withSession(session).withInertia()
    page.assertInertiaComponent('auth/two_factor')
    assert.equal(page.inertiaProps.email, user.email)

    const wrong = await submitCode(client, session, '000000')
    wrong.assertFlashMessage('toast', {
      type: 'error',
      title: 'That code is not right',
      description: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
    })
    assert.isUndefined(wrong.session().auth_web)

    const right = await submitCode(client, session, await codeOf(user))
    right.assertHeader('location', '/workflows')
    const signedIn = right.session() as Session
    assert.equal(signedIn.auth_web, user.id)
    assert.isString(signedIn[SESSION_RECORD_KEY])
    assert.isString(signedIn[TWO_FACTOR_VERIFIED_KEY])
    assert.isUndefined(signedIn[TWO_FACTOR_PENDING_KEY])
    ;(await client.get('/bots').withSession(signedIn)).assertStatus(200)
  })

  test('a code works once: the same code again is refused', async ({ client }) => {
    const user = await createUser()
    await enable(client, user)
    const code = await codeOf(user)
    const first = await openMagicLink(client, user)
    ;(await submitCode(client, first.session, code)).assertHeader('location', '/bots')

    const second = await openMagicLink(client, user)
    const replay = await submitCode(client, second.session, code)
    replay.assertFlashMessage('toast', {
      type: 'error',
      title: 'That code is not right',
      description: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
    })
    // A code of a later step still works.
    ;(await submitCode(client, second.session, await codeOf(user, 1))).assertHeader(
      'location',
      '/bots'
    )
  })

  test('a recovery code signs in once', async ({ client, assert }) => {
    const user = await createUser()
    const codes = await enable(client, user)
    const first = await openMagicLink(client, user)
    const used = await submitCode(client, first.session, ` ${codes[0].toUpperCase()} `)
    used.assertHeader('location', '/bots')
    used.assertFlashMessage('toast', {
      type: 'info',
      title: 'You signed in with a recovery code',
      description: 'Each recovery code works once.',
    })
    const second = await openMagicLink(client, user)
    const again = await submitCode(client, second.session, codes[0])
    assert.isUndefined(again.session().auth_web)
    again.assertFlashMessage('toast', {
      type: 'error',
      title: 'That code is not right',
      description: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
    })
    const page = await client.get('/settings/account/security').loginAs(user).withInertia()
    assert.equal((page.inertiaProps.twoFactor as any).recoveryCodesLeft, 9)
  })

  test('after 5 wrong codes even the right one waits, with a clear message', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await enable(client, user)
    await resetAttempts(user)
    const { session } = await openMagicLink(client, user)
    for (let i = 0; i < 5; i++) {
      ;(await submitCode(client, session, '000000')).assertFlashMessage('toast', {
        type: 'error',
        title: 'That code is not right',
        description: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
      })
    }
    const limited = await submitCode(client, session, await codeOf(user))
    limited.assertFlashMessage('toast', {
      type: 'error',
      title: 'Too many codes tried',
      description: 'Wait 15 minutes, then try again.',
    })
    assert.equal(
      (limited.flashMessages().errorsBag as any)?.code,
      'Wait 15 minutes, then try again.'
    )
    assert.isUndefined(limited.session().auth_web)
    // JSON callers get 429.
    const json = await client
      .post('/signin/two-factor')
      .json({ code: '123456' })
      .withSession(session)
      .withCsrfToken()
      .header('accept', 'application/json')
    json.assertStatus(429)
    json.assertBodyContains({ message: 'Too many codes tried' })
    // Settings share the budget: turning 2FA off is refused as well.
    const off = await settingsPost(client, user, 'disable', await codeOf(user))
    off.assertFlashMessage('toast', {
      type: 'error',
      title: 'Too many codes tried',
      description: 'Wait 15 minutes, then try again.',
    })
    await resetAttempts(user)
    ;(await submitCode(client, session, await codeOf(user))).assertHeader('location', '/bots')
  })

  test('GET /api/2fa/clearTwoFA forgets the pending sign-in', async ({ client, assert }) => {
    const user = await createUser()
    await enable(client, user)
    const { session } = await openMagicLink(client, user)
    const cleared = await client.get('/api/2fa/clearTwoFA').withSession(session)
    cleared.assertStatus(200)
    cleared.assertBody({ cleared: true })
    const after = cleared.session() as Session
    assert.isUndefined(after[TWO_FACTOR_PENDING_KEY])
    const page = await client.get('/signin/two-factor').withSession(after).redirects(0)
    page.assertHeader('location', '/signin')
    page.assertFlashMessage('toast', {
      type: 'error',
      title: 'Your sign-in has expired',
      description: 'Ask for a new sign-in link.',
    })
    ;(await submitCode(client, after, await codeOf(user))).assertHeader('location', '/signin')
  })

  test('GET /api/2fa/clearTwoFA from another site (a link, a script) changes nothing', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await enable(client, user)
    const { session } = await openMagicLink(client, user)
    for (const site of ['cross-site', 'same-site']) {
      const forged = await client
        .get('/api/2fa/clearTwoFA')
        .header('Sec-Fetch-Site', site)
        .header('Sec-Fetch-Mode', 'navigate')
        .withSession(session)
      forged.assertStatus(403)
      assert.isDefined((forged.session() as Session)[TWO_FACTOR_PENDING_KEY])
    }
    // The app's own page calling it is same-origin.
    const own = await client
      .get('/api/2fa/clearTwoFA')
      .header('Sec-Fetch-Site', 'same-origin')
      .withSession(session)
    own.assertStatus(200)
    assert.isUndefined((own.session() as Session)[TWO_FACTOR_PENDING_KEY])
  })

  test('logout clears the verified state; sign-in without 2FA is unchanged', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await enable(client, user)
    const { session } = await openMagicLink(client, user)
    const signedIn = (await submitCode(client, session, await codeOf(user))).session() as Session
    const cleared = await client.get('/api/2fa/clearTwoFA').withSession(signedIn)
    assert.isUndefined((cleared.session() as Session)[TWO_FACTOR_VERIFIED_KEY])
    const out = await client
      .post('/logout')
      .withSession(cleared.session())
      .withCsrfToken()
      .redirects(0)
    out.assertHeader('location', '/signin')
    out.assertFlashMessage('toast', { type: 'success', title: 'Logged out successfully' })
    ;(await client.get('/bots').withSession(out.session()).redirects(0)).assertStatus(302)

    const plain = await createUser()
    const direct = await openMagicLink(client, plain)
    direct.response.assertHeader('location', '/bots')
    assert.equal(direct.session.auth_web, plain.id)
  })
})

test.group('Two-factor sign-in after OAuth (GitHub stand-in)', (group) => {
  // Where the app's GitHub settings point: each `npm test` shard has its own port.
  const PORT = Number(new URL(env.get('GITHUB_URL') ?? 'http://127.0.0.1:3399').port)
  let github: Awaited<ReturnType<typeof startGithubStandIn>>
  group.setup(async () => {
    github = await startGithubStandIn(PORT, 'test-github-client', 'test-github-secret')
    return () => github.close()
  })

  test('a GitHub sign-in of an account with 2FA stops at the code page', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await enable(client, user)
    const redirect = await client.get('/auth/github/redirect').redirects(0)
    const state = new URL(redirect.header('location')!).searchParams.get('state')!
    const code = github.approve({ id: 9191, login: 'two', name: 'Two F', email: user.email })
    const callback = await client
      .get(`/auth/github/callback?code=${code}&state=${state}`)
      .withEncryptedCookie('gh_oauth_state', state)
      .redirects(0)
    callback.assertHeader('location', '/signin/two-factor')
    const session = callback.session() as Session
    assert.isUndefined(session.auth_web)
    ;(await client.get('/bots').withSession(session).redirects(0)).assertStatus(302)
    const done = await submitCode(client, session, await codeOf(user))
    done.assertHeader('location', '/bots')
    assert.equal(done.session().auth_web, user.id)
  })
})
