import { test } from '@japa/runner'
import BotInvitation from '#models/bot_invitation'
import DevMail from '#models/dev_mail'
import WorkspaceMember from '#models/workspace_member'
import { CreateBot } from '#actions/bots/create_bot'
import { createUser, firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import type User from '#models/user'

async function botOf(owner: User, name = 'Shared bot') {
  return new CreateBot().handle(owner, await firstWorkspaceOf(owner), { name })
}

test.group('Bot invitations API', () => {
  test('invite by e-mail, list, change the type and remove', async ({ client, assert }) => {
    const owner = await createUser({ name: 'Owner' })
    const bot = await botOf(owner)
    const email = uniqueEmail('Invitee').toUpperCase()
    const base = `/api/bots/${bot.id}/invitations`

    const empty = await client.get(base).loginAs(owner)
    empty.assertStatus(200)
    assert.deepEqual(empty.body(), { invitations: [] })

    const created = await client
      .post(base)
      .json({ email, type: 'WRITE' })
      .loginAs(owner)
      .withCsrfToken()
    created.assertStatus(201)
    const invitation = created.body().invitation
    assert.equal(invitation.email, email.toLowerCase())
    assert.equal(invitation.type, 'WRITE')
    assert.equal(invitation.createdBy, owner.id)
    const mail = await DevMail.query().where('to', email.toLowerCase()).firstOrFail()
    assert.include(mail.subject, 'Shared bot')
    assert.include(mail.text, `/bots/${bot.id}/edit`)

    const listed = await client.get(base).loginAs(owner)
    assert.deepEqual(
      listed.body().invitations.map((i: any) => [i.email, i.type]),
      [[email.toLowerCase(), 'WRITE']]
    )

    const again = await client
      .post(base)
      .json({ email: email.toLowerCase() })
      .loginAs(owner)
      .withCsrfToken()
    again.assertStatus(409)
    again.assertBodyContains({ message: 'Already invited', field: 'email' })

    const updated = await client
      .patch(`${base}/${invitation.id}`)
      .json({ type: 'FULL_ACCESS' })
      .loginAs(owner)
      .withCsrfToken()
    updated.assertStatus(200)
    assert.equal(updated.body().invitation.type, 'FULL_ACCESS')

    const removed = await client.delete(`${base}/${invitation.id}`).loginAs(owner).withCsrfToken()
    removed.assertStatus(204)
    assert.isNull(await BotInvitation.find(invitation.id))
  })

  test('bad input: 422 for a bad e-mail or type, 409 for a workspace member', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const bot = await botOf(owner)
    const base = `/api/bots/${bot.id}/invitations`
    const bad = await client
      .post(base)
      .json({ email: 'not-an-email', type: 'OWNER' })
      .loginAs(owner)
      .withCsrfToken()
    bad.assertStatus(422)
    assert.sameMembers(
      bad.body().errors.map((e: any) => e.field),
      ['email', 'type']
    )
    const member = await client
      .post(base)
      .json({ email: owner.email, type: 'READ' })
      .loginAs(owner)
      .withCsrfToken()
    member.assertStatus(409)
    member.assertBodyContains({ message: 'Already a member' })
    assert.lengthOf(await BotInvitation.query().where('bot_id', bot.id), 0)
  })

  test('the invitation gives its mode on the bot: edit access writes, view access reads', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const bot = await botOf(owner)
    const editor = await createUser()
    const viewer = await createUser()
    await BotInvitation.create({ botId: bot.id, email: editor.email, type: 'WRITE' })
    await BotInvitation.create({ botId: bot.id, email: viewer.email, type: 'READ' })

    const asEditor = await client.get(`/bots/${bot.id}/edit`).loginAs(editor).withInertia()
    asEditor.assertInertiaComponent('bots/edit')
    assert.equal(asEditor.inertiaProps.currentUserMode, 'write')
    const asViewer = await client.get(`/bots/${bot.id}/theme`).loginAs(viewer).withInertia()
    assert.equal(asViewer.inertiaProps.currentUserMode, 'read')

    // The same mode holds for the bot's API: the editor saves, the viewer cannot.
    const saved = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .json({ name: 'Renamed by a collaborator' })
      .loginAs(editor)
      .withCsrfToken()
    saved.assertStatus(200)
    const refused = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .json({ name: 'Nope' })
      .loginAs(viewer)
      .withCsrfToken()
    refused.assertStatus(403)

    // Collaborators see the list; only full access (or a writing member) may change it.
    ;(await client.get(`/api/bots/${bot.id}/invitations`).loginAs(viewer)).assertStatus(200)
    const byEditor = await client
      .post(`/api/bots/${bot.id}/invitations`)
      .json({ email: uniqueEmail('friend'), type: 'READ' })
      .loginAs(editor)
      .withCsrfToken()
    byEditor.assertStatus(403)
    byEditor.assertBodyContains({
      description: 'Only collaborators with full access can share this bot.',
    })
    await BotInvitation.query().where('email', editor.email).update({ type: 'FULL_ACCESS' })
    const byFullAccess = await client
      .post(`/api/bots/${bot.id}/invitations`)
      .json({ email: uniqueEmail('friend'), type: 'READ' })
      .loginAs(editor)
      .withCsrfToken()
    byFullAccess.assertStatus(201)
  })

  test('strangers and guests of the workspace cannot manage invitations', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const bot = await botOf(owner)
    const invitation = await BotInvitation.create({
      botId: bot.id,
      email: uniqueEmail('kept'),
      type: 'READ',
    })
    const stranger = await createUser()
    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: bot.workspaceId, userId: guest.id, role: 'GUEST' })
    const base = `/api/bots/${bot.id}/invitations`

    const strangerList = await client.get(base).loginAs(stranger)
    strangerList.assertStatus(404)
    strangerList.assertBodyContains({ message: 'Bot not found' })
    ;(
      await client.delete(`${base}/${invitation.id}`).loginAs(stranger).withCsrfToken()
    ).assertStatus(404)
    ;(
      await client
        .patch(`${base}/${invitation.id}`)
        .json({ type: 'FULL_ACCESS' })
        .loginAs(guest)
        .withCsrfToken()
    ).assertStatus(403)
    ;(await client.delete(`${base}/not-an-invitation`).loginAs(owner).withCsrfToken()).assertStatus(
      404
    )
    ;(await client.get(base).accept('json')).assertStatus(401)
    await invitation.refresh()
    assert.equal(invitation.type, 'READ')
  })
})
