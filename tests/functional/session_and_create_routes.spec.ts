import { test } from '@japa/runner'
import Bot from '#models/bot'
import User from '#models/user'
import WorkspaceMember from '#models/workspace_member'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/** /bots/create and GET /api/auth/session?update. */
test.group('Routes: /bots/create and the session', () => {
  test('/bots/create shows the dashboard with the creation dialog open; it creates nothing', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)
    const page = await client.get('/bots/create').loginAs(user).withInertia()
    page.assertStatus(200)
    page.assertInertiaComponent('bots/index')
    assert.isTrue(page.inertiaProps.openCreate)
    assert.deepEqual(page.inertiaProps.bots, [])
    assert.lengthOf(await Bot.query().where('workspace_id', workspace.id), 0)
    // The dashboard itself does not open it.
    const dashboard = await client.get('/bots').loginAs(user).withInertia()
    assert.isFalse(dashboard.inertiaProps.openCreate)
  })

  test('/bots/create: a guest of the workspace gets the dashboard without it; signed out, the sign-in page', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const page = await client
      .get(`/bots/create?workspaceId=${workspace.id}`)
      .loginAs(guest)
      .withInertia()
    page.assertStatus(200)
    assert.equal(page.inertiaProps.currentWorkspace.id, workspace.id)
    assert.isFalse(page.inertiaProps.openCreate)

    const signedOut = await client.get('/bots/create').redirects(0)
    signedOut.assertStatus(302)
    signedOut.assertHeader('location', '/signin?redirectPath=%2Fbots%2Fcreate')
  })

  test('GET /api/auth/session?update answers the signed-in session, read fresh from the database', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ name: 'Ada' })
    const workspace = await firstWorkspaceOf(user)
    const before = Date.now()
    const first = await client.get('/api/auth/session?update').loginAs(user)
    first.assertStatus(200)
    assert.equal(first.body().user.id, user.id)
    assert.equal(first.body().user.name, 'Ada')
    assert.equal(first.body().user.email, user.email)
    assert.equal(first.body().currentWorkspace.id, workspace.id)
    // The session lasts 30 days from now (config/session.ts).
    const expires = Date.parse(first.body().expires)
    assert.approximately(expires - before, 30 * 24 * 3600 * 1000, 60_000)

    // Renamed elsewhere (another tab): the next answer says so.
    await User.query().where('id', user.id).update({ name: 'Ada L.' })
    const second = await client.get('/api/auth/session').loginAs(user)
    assert.equal(second.body().user.name, 'Ada L.')

    const signedOut = await client.get('/api/auth/session?update').accept('json')
    signedOut.assertStatus(401)
  })
})
