import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import User from '#models/user'
import { createUser } from '#tests/helpers'

test.group('Account settings', () => {
  test('PATCH /api/users/{id} updates name, appearance, navigation and language', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const response = await client
      .patch(`/api/users/${user.id}`)
      .json({
        name: 'Renée',
        preferredAppAppearance: 'dark',
        graphNavigation: 'trackpad',
        preferredLanguage: 'pt-BR',
      })
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({
      user: { name: 'Renée', preferredAppAppearance: 'dark', preferredLanguage: 'pt-BR' },
    })
    await user.refresh()
    assert.equal(user.graphNavigation, 'trackpad')
  })

  test('bad values answer 422 and keep what was saved', async ({ client, assert }) => {
    const user = await createUser({ name: 'Kept' })
    const response = await client
      .patch(`/api/users/${user.id}`)
      .json({ name: 'x'.repeat(300), preferredLanguage: 'xx' })
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(422)
    assert.sameMembers(
      response.body().errors.map((e: any) => e.field),
      ['name', 'preferredLanguage']
    )
    await user.refresh()
    assert.equal(user.name, 'Kept')
  })

  test('the e-mail cannot be changed and other users cannot be updated', async ({ client }) => {
    const user = await createUser()
    const other = await createUser()
    const email = await client
      .patch(`/api/users/${user.id}`)
      .json({ email: 'new@example.com' })
      .loginAs(user)
      .withCsrfToken()
    email.assertStatus(422)
    email.assertBodyContains({
      description: 'Please contact support to change your e-mail address.',
    })
    const foreign = await client
      .patch(`/api/users/${other.id}`)
      .json({ name: 'x' })
      .loginAs(user)
      .withCsrfToken()
    foreign.assertStatus(403)
  })

  test('a session JSON call without the XSRF token is refused', async ({ client, assert }) => {
    const user = await createUser({ name: 'Before' })
    const response = await client
      .patch(`/api/users/${user.id}`)
      .json({ name: 'x' })
      .loginAs(user)
      .redirects(0)
    response.assertStatus(403)
    await user.refresh()
    assert.equal(user.name, 'Before')
  })

  test('profile photo: png accepted, over 1 MB or another type refused', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const ok = await client
      .post('/settings/account/photo')
      .file('photo', app.makePath('tests/fixtures/avatar.png'))
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    ok.assertStatus(302)
    await user.refresh()
    assert.match(user.image!, /^\/storage\/avatars\/.+\.png$/)
    const served = await client.get(user.image!)
    served.assertStatus(200)
    served.assertHeader('content-type', 'image/png')

    const big = await client
      .post('/settings/account/photo')
      .header('referer', '/settings/account/profile')
      .file('photo', app.makePath('tests/fixtures/big.png'))
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    big.assertFlashMessage('inputErrorsBag', { photo: ['The photo must be at most 1 MB.'] })

    const gif = await client
      .post('/settings/account/photo')
      .header('referer', '/settings/account/profile')
      .file('photo', app.makePath('tests/fixtures/anim.gif'))
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    gif.assertFlashMessage('inputErrorsBag', { photo: ['The photo must be a .jpg or .png image.'] })
    const kept = (await User.findOrFail(user.id)).image
    assert.equal(kept, user.image)
  })

  test('tour status flags are saved', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client
      .post('/api/updateTourStatus')
      .json({ dashboardTourCompleted: true })
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(200)
    await user.refresh()
    assert.deepEqual(user.tourStatus, { dashboardTourCompleted: true })
  })

  test('every settings tab renders; an unknown tab goes to My account', async ({ client }) => {
    const user = await createUser()
    for (const path of [
      '/settings/account/profile',
      '/settings/account/preferences',
      '/settings/account/keys',
      '/settings/account/billing',
      '/settings/workspace/setting',
      '/settings/workspace/member',
    ]) {
      const response = await client.get(path).loginAs(user).withInertia()
      response.assertStatus(200)
      response.assertInertiaComponent('settings/index')
    }
    const unknown = await client.get('/settings/account/nope').loginAs(user).redirects(0)
    unknown.assertHeader('location', '/settings/account/profile')
  })
})

test.group('API tokens', () => {
  test('create (value shown once), use as Bearer, list, revoke', async ({ client, assert }) => {
    const user = await createUser()
    const created = await client
      .post('/settings/account/keys')
      .form({ name: 'ci' })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    created.assertHeader('location', '/settings/account/keys')
    const flashed = created.flashMessages().createdToken as { name: string; value: string }
    assert.equal(flashed.name, 'ci')
    assert.match(flashed.value, /^fc_/)

    const row = await (
      await import('@adonisjs/lucid/services/db')
    ).default
      .from('auth_access_tokens')
      .where('tokenable_id', user.id)
      .firstOrFail()
    assert.notInclude(row.hash, flashed.value.slice(3))

    const me = await client.get('/api/v1/me').bearerToken(flashed.value)
    me.assertStatus(200)
    me.assertBodyContains({ user: { id: user.id, email: user.email } })

    const workspaces = await client.get('/api/v1/workspaces').bearerToken(flashed.value)
    workspaces.assertStatus(200)
    assert.lengthOf(workspaces.body().workspaces, 1)
    assert.equal(workspaces.body().workspaces[0].role, 'ADMIN')

    const page = await client.get('/settings/account/keys').loginAs(user).withInertia()
    const listed = page.inertiaProps.apiTokens
    assert.lengthOf(listed, 1)
    assert.notProperty(listed[0], 'value')
    assert.isNull(page.inertiaProps.createdToken)

    const duplicate = await client
      .post('/settings/account/keys')
      .header('accept', 'application/json')
      .json({ name: 'ci' })
      .loginAs(user)
      .withCsrfToken()
    duplicate.assertStatus(409)
    duplicate.assertBodyContains({ field: 'name' })

    await client
      .delete(`/settings/account/keys/${listed[0].id}`)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    const revoked = await client.get('/api/v1/me').bearerToken(flashed.value)
    revoked.assertStatus(401)
  })

  test('a wrong token is refused', async ({ client }) => {
    const response = await client.get('/api/v1/me').bearerToken('fc_nope.nope')
    response.assertStatus(401)
  })

  test('node ace user:token creates the user and a working token', async ({ client, assert }) => {
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    const email = `cli-${Date.now()}@example.com`
    const command = await ace.exec('user:token', [email, '--name', 'ci'])
    assert.equal(command.exitCode, 0)
    const user = await User.findByOrFail('email', email)
    const tokens = await User.accessTokens.all(user)
    assert.deepEqual(
      tokens.map((t) => t.name),
      ['ci']
    )
    const again = await ace.exec('user:token', [email, '--name', 'ci'])
    assert.equal(again.exitCode, 0)
    assert.sameMembers(
      (await User.accessTokens.all(user)).map((t) => t.name),
      ['ci', 'ci-2']
    )
    void client
  })
})

test.group('Server messages follow the language', () => {
  test("validation messages use the user's language, else Accept-Language", async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    user.preferredLanguage = 'fr'
    await user.save()
    const response = await client
      .patch(`/api/users/${user.id}`)
      .json({ preferredLanguage: 'xx' })
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(422)
    assert.equal(
      response.body().errors[0].message,
      "La valeur choisie pour langue n'est pas valide"
    )

    const anonymous = await client
      .post('/signin')
      .header('accept-language', 'fr-FR,fr;q=0.9')
      .header('referer', '/signin')
      .form({ email: 'nope' })
      .withCsrfToken()
      .redirects(0)
    anonymous.assertFlashMessage('inputErrorsBag', {
      email: ['Le champ e-mail doit être une adresse e-mail valide'],
    })
  })
})
