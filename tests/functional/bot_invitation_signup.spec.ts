import { test } from '@japa/runner'
import env from '#start/env'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { createUser, firstWorkspaceOf, lastMagicLink, uniqueEmail } from '#tests/helpers'

test.group('Sign-ups disabled: bot invitees', () => {
  test('people invited only to a bot may still sign up by e-mail link', async ({
    client,
    assert,
    cleanup,
  }) => {
    const owner = await createUser({ name: 'Owner' })
    const bot = await new CreateBot().handle(owner, await firstWorkspaceOf(owner), {
      name: 'Shared bot',
    })
    env.set('DISABLE_SIGNUP', true)
    cleanup(() => env.set('DISABLE_SIGNUP', false))

    // Nobody else gets in.
    const stranger = uniqueEmail('stranger')
    const refused = await client
      .post('/signin')
      .json({ email: stranger })
      .header('accept', 'application/json')
      .withCsrfToken()
    refused.assertStatus(403)

    const invitee = uniqueEmail('bot-invitee').toUpperCase()
    const invited = await client
      .post(`/api/bots/${bot.id}/invitations`)
      .json({ email: invitee, type: 'WRITE' })
      .loginAs(owner)
      .withCsrfToken()
    invited.assertStatus(201)

    // The e-mail as typed (any case) finds the invitation.
    const accepted = await client
      .post('/signin')
      .form({ email: invitee })
      .withCsrfToken()
      .redirects(0)
    assert.match(accepted.header('location') ?? '', /^\/signin\/check-email\?/)
    await client.get((await lastMagicLink(invitee)).path).redirects(0)
    const user = await User.findByOrFail('email', invitee.toLowerCase())
    assert.isNull(await User.findBy('email', stranger))

    // The new account opens the shared bot in the invitation's mode.
    const editor = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    editor.assertStatus(200)
    assert.equal(editor.inertiaProps.currentUserMode, 'write')
  })
})
