import { test } from '@japa/runner'
import Bot from '#models/bot'
import BotInvitation, { type BotInvitationType } from '#models/bot_invitation'
import { CreateBot } from '#actions/bots/create_bot'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type User from '#models/user'

/** What people invited to one bot may do with it besides editing. */

async function sharedBot(type: BotInvitationType) {
  const owner = await createUser({ name: 'Owner' })
  await setUserPlan(owner, 'STANDARD')
  const workspace = await firstWorkspaceOf(owner)
  workspace.plan = 'STANDARD'
  await workspace.save()
  const bot = await new CreateBot().handle(owner, workspace, { name: 'Shared bot' })
  const invitee = await createUser({ name: 'Invitee' })
  await BotInvitation.create({ botId: bot.id, email: invitee.email, type, createdBy: owner.id })
  return { owner, bot, invitee }
}

async function botsNamed(workspaceId: string) {
  return (await Bot.query().where('workspace_id', workspaceId).orderBy('name')).map((b) => b.name)
}

async function tryDuplicateAndDelete(client: any, user: User, botId: string) {
  const duplicate = await client
    .post(`/bots/${botId}/duplicate`)
    .loginAs(user)
    .withCsrfToken()
    .redirects(0)
  const apiDelete = await client.delete(`/api/v1/bots/${botId}`).loginAs(user).withCsrfToken()
  return { duplicate, apiDelete }
}

test.group('Bot invitees: delete and duplicate', () => {
  test('"Can edit" invitees edit the flow but may not delete or duplicate the bot', async ({
    client,
    assert,
  }) => {
    const { bot, invitee } = await sharedBot('WRITE')

    const edited = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .json({ name: 'Renamed by the invitee' })
      .loginAs(invitee)
      .withCsrfToken()
    edited.assertStatus(200)

    const { apiDelete } = await tryDuplicateAndDelete(client, invitee, bot.id)
    apiDelete.assertStatus(403)
    assert.equal(
      apiDelete.body().description,
      'Only people with full access can delete or duplicate this bot.'
    )
    const webDelete = await client
      .delete(`/bots/${bot.id}`)
      .loginAs(invitee)
      .withCsrfToken()
      .redirects(0)
    assert.notEqual(webDelete.status(), 200)
    assert.deepEqual(await botsNamed(bot.workspaceId), ['Renamed by the invitee'])
  })

  test('"Full access" invitees may duplicate and delete the bot', async ({ client, assert }) => {
    const { bot, invitee } = await sharedBot('FULL_ACCESS')
    const { duplicate, apiDelete } = await tryDuplicateAndDelete(client, invitee, bot.id)
    assert.equal(duplicate.status(), 302)
    apiDelete.assertStatus(204)
    assert.deepEqual(await botsNamed(bot.workspaceId), ['Shared bot (copy)'])
  })

  test('"Can view" invitees may do neither', async ({ client, assert }) => {
    const { bot, invitee } = await sharedBot('READ')
    const { apiDelete } = await tryDuplicateAndDelete(client, invitee, bot.id)
    apiDelete.assertStatus(403)
    assert.deepEqual(await botsNamed(bot.workspaceId), ['Shared bot'])
  })
})
