import { test } from '@japa/runner'
import Bot from '#models/bot'
import WorkspaceMember from '#models/workspace_member'
import { CreateBot } from '#actions/bots/create_bot'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

test.group('Editor page access', () => {
  test('members get their mode; strangers and visitors see nothing unless the flow is public', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const bot = await new CreateBot().handle(owner, workspace, { name: 'Flow' })

    const asOwner = await client.get(`/bots/${bot.id}/edit`).loginAs(owner).withInertia()
    asOwner.assertInertiaComponent('bots/edit')
    assert.equal(asOwner.inertiaProps.currentUserMode, 'write')
    assert.equal(asOwner.inertiaProps.tab, 'edit')
    assert.isAbove(asOwner.inertiaProps.plugins.length, 20)
    assert.equal(asOwner.inertiaProps.currentWorkspace.id, workspace.id)

    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const asGuest = await client.get(`/bots/${bot.id}/theme`).loginAs(guest).withInertia()
    assert.equal(asGuest.inertiaProps.currentUserMode, 'read')
    assert.equal(asGuest.inertiaProps.tab, 'theme')

    const stranger = await createUser()
    ;(await client.get(`/bots/${bot.id}/edit`).loginAs(stranger).withInertia()).assertStatus(404)
    const visitor = await client.get(`/bots/${bot.id}/settings`).withInertia().redirects(0)
    visitor.assertStatus(404)

    const stored = await Bot.findOrFail(bot.id)
    stored.settings = { ...stored.settings, publicShare: { isEnabled: true } } as any
    await stored.save()
    const publicView = await client.get(`/bots/${bot.id}/edit`).withInertia()
    publicView.assertStatus(200)
    assert.equal(publicView.inertiaProps.currentUserMode, 'guest')
    assert.isNull(publicView.inertiaProps.published)
  })
})
