import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import User from '#models/user'
import AdminAuditLog from '#models/admin_audit_log'
import UserSession from '#models/user_session'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { TWO_FACTOR_PENDING_KEY } from '#services/auth/sign_in_gate'
import { createUser, uniqueEmail } from '#tests/helpers'
import { codeOf, enable, openMagicLink, submitCode, device } from '#tests/two_factor_steps'

test.group('Two-factor sign-in: admins reset it', () => {
  async function admin() {
    // ADMIN_EMAILS=admin@example.com in .env.test
    return (await new FindOrCreateUser().handle('admin@example.com')).user
  }

  test('from /admin/workspaces, audited; others are refused', async ({ client, assert }) => {
    const user = await createUser({ email: uniqueEmail('lost-phone') })
    await enable(client, user)
    const someone = await createUser()
    const refused = await client
      .delete(`/admin/users/${user.id}/two-factor`)
      .loginAs(someone)
      .withCsrfToken()
      .header('accept', 'application/json')
    refused.assertStatus(403)
    await user.refresh()
    assert.isNotNull(user.twoFactorEnabledAt)

    const page = await client
      .get(`/admin/workspaces?q=${encodeURIComponent(user.email)}`)
      .loginAs(await admin())
      .withInertia()
    const row = (page.inertiaProps.users as any[]).find((u) => u.id === user.id)
    assert.isTrue(row.twoFactorEnabled)

    const reset = await client
      .delete(`/admin/users/${user.id}/two-factor`)
      .loginAs(await admin())
      .withCsrfToken()
      .redirects(0)
    reset.assertStatus(302)
    reset.assertFlashMessage('toast', {
      type: 'success',
      title: 'Two-factor sign-in reset',
      description: user.email,
    })
    await user.refresh()
    assert.isNull(user.twoFactorEnabledAt)
    assert.isNull(user.twoFactorSecret)
    const entry = await AdminAuditLog.query()
      .where('target_id', user.id)
      .where('action', 'reset_2fa')
      .firstOrFail()
    assert.equal(entry.actorLabel, 'admin@example.com')
    assert.deepEqual(entry.details, { wasOn: true })

    // The link alone signs in again.
    const { response } = await openMagicLink(client, user)
    response.assertHeader('location', '/bots')
  })

  test('a reset signs the person out everywhere, half-way sign-ins included; a new link works', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ email: uniqueEmail('stolen-phone') })
    await enable(client, user)
    // A browser signed in with link and code, another device, and a sign-in left half-way.
    const first = await openMagicLink(client, user)
    const laptop = (await submitCode(client, first.session, await codeOf(user))).session()
    ;(await client.get('/bots').withSession(laptop).redirects(0)).assertStatus(200)
    const phone = await device(user)
    const halfWay = (await openMagicLink(client, user)).session
    const bystander = await device(await createUser())

    const reset = await client
      .delete(`/admin/users/${user.id}/two-factor`)
      .loginAs(await admin())
      .withCsrfToken()
      .redirects(0)
    reset.assertStatus(302)
    assert.lengthOf(await UserSession.query().where('user_id', user.id), 0)

    for (const session of [laptop, phone]) {
      const page = await client.get('/bots').withSession(session).redirects(0)
      page.assertStatus(302)
      assert.match(page.header('location') ?? '', /^\/signin/)
      const api = await client
        .get('/api/onboarding/checklist')
        .withSession(session)
        .header('accept', 'application/json')
      api.assertStatus(401)
    }
    // The half-way sign-in ends too, even with a well-formed code: a new link is needed.
    const late = await submitCode(client, halfWay, '123456')
    late.assertHeader('location', '/signin')
    late.assertFlashMessage('toast', {
      type: 'error',
      title: 'Your sign-in has expired',
      description: 'Ask for a new sign-in link.',
    })
    assert.isUndefined(late.session().auth_web)
    assert.isUndefined(late.session()[TWO_FACTOR_PENDING_KEY])
    // Someone else is untouched.
    ;(await client.get('/bots').withSession(bystander).redirects(0)).assertStatus(200)

    // A new sign-in works, with the link alone.
    const again = await openMagicLink(client, user)
    again.response.assertHeader('location', '/bots')
    ;(await client.get('/bots').withSession(again.session).redirects(0)).assertStatus(200)
  }).timeout(90_000)

  test('`node ace user:reset-2fa` signs the person out everywhere too', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await enable(client, user)
    const phone = await device(user)
    ;(await client.get('/bots').withSession(phone).redirects(0)).assertStatus(200)

    const kernel = await app.container.make('ace')
    kernel.ui.switchMode('raw')
    assert.equal((await kernel.exec('user:reset-2fa', [user.email])).exitCode, 0)

    const page = await client.get('/bots').withSession(phone).redirects(0)
    assert.match(page.header('location') ?? '', /^\/signin/)
    assert.lengthOf(await UserSession.query().where('user_id', user.id), 0)
    // A reset of someone without a second factor changes nothing, sessions included.
    const plain = await createUser()
    const theirs = await device(plain)
    assert.equal((await kernel.exec('user:reset-2fa', [plain.email])).exitCode, 0)
    ;(await client.get('/bots').withSession(theirs).redirects(0)).assertStatus(200)
  })

  test('`node ace user:reset-2fa <email>` does the same, audited as cli', async ({ assert }) => {
    const user = await createUser()
    const { startTwoFactorSetup, confirmTwoFactorSetup } = await import('#actions/users/two_factor')
    await startTwoFactorSetup(user)
    await confirmTwoFactorSetup(user, await codeOf(user))

    const kernel = await app.container.make('ace')
    kernel.ui.switchMode('raw')
    const command = await kernel.exec('user:reset-2fa', [user.email.toUpperCase()])
    assert.equal(command.exitCode, 0)
    const fresh = await User.findOrFail(user.id)
    assert.isNull(fresh.twoFactorEnabledAt)
    const entry = await AdminAuditLog.query()
      .where('target_id', user.id)
      .where('action', 'reset_2fa')
      .firstOrFail()
    assert.equal(entry.actorLabel, 'cli')

    const unknown = await kernel.exec('user:reset-2fa', ['nobody@example.com'])
    assert.equal(unknown.exitCode, 1)
  })
})
