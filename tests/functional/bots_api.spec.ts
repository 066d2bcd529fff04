import { test } from '@japa/runner'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import PluginPlanSetting from '#models/plugin_plan_setting'
import { resetPluginSettings } from '#services/marketplace'
import WorkspaceMember from '#models/workspace_member'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type User from '#models/user'

async function tokenFor(user: User) {
  return (await new CreateApiToken().handle(user, `t-${Date.now()}-${Math.random()}`)).value
}

/** A v5-style file: a start group whose first block is the start block. */
function v5Bot(id = 'importedbot0001') {
  return {
    version: '5',
    id,
    name: 'Imported',
    publicId: `imported-${id}`,
    groups: [
      {
        id: 'g0',
        title: 'Start',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [{ id: 'b0', type: 'start', label: 'Start', groupId: 'g0', outgoingEdgeId: 'e0' }],
      },
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [
          {
            id: 'b1',
            groupId: 'g1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hi' }] }] },
          },
          { id: 'b2', groupId: 'g1', type: 'text input', options: { variableId: 'v1' } },
        ],
      },
    ],
    edges: [
      { id: 'e0', from: { groupId: 'g0', blockId: 'b0' }, to: { groupId: 'g1' } },
      { id: 'broken', from: { groupId: 'g1', blockId: 'nope' }, to: { groupId: 'g1' } },
    ],
    variables: [{ id: 'v1', name: 'Name' }],
    theme: {},
    settings: {},
  }
}

test.group('Bots REST API', (group) => {
  group.each.teardown(async () => {
    await resetPluginSettings()
  })

  test('import a v5 file: migrated to v6, own id and publicId kept when free', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const id = `imp${Date.now()}`
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(id) })
    created.assertStatus(201)
    const bot = created.body().bot
    assert.equal(bot.id, id)
    assert.equal(bot.publicId, `imported-${id}`)
    assert.equal(bot.version, '6')
    assert.lengthOf(bot.events, 1)
    assert.equal(bot.events[0].type, 'start')
    assert.notInclude(JSON.stringify(bot.groups), '"type":"start"')
    assert.notInclude(
      bot.edges.map((e: any) => e.id),
      'broken'
    )
    assert.equal(created.body().currentUserMode, 'write')

    // Importing the same file again: ids taken, so new ones.
    await setUserPlan(user, 'STANDARD')
    const again = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(id) })
    again.assertStatus(201)
    assert.notEqual(again.body().bot.id, id)
    assert.isNull(again.body().bot.publicId)
  })

  test('a file that is not a bot: "Failed to parse the file. Are you sure it\'s a bot?", nothing created', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const before = await Bot.query().where('workspace_id', workspace.id)
    const response = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: { hello: 'world' } })
    response.assertStatus(422)
    response.assertBodyContains({ message: "Failed to parse the file. Are you sure it's a bot?" })
    assert.lengthOf(await Bot.query().where('workspace_id', workspace.id), before.length)
  })

  test('the Free plan allows one bot', async ({ client }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const first = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(`a${Date.now()}`) })
    first.assertStatus(201)
    const second = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(`b${Date.now()}`) })
    second.assertStatus(403)
    second.assertBodyContains({ message: 'Bot limit reached' })
  })

  test('get, patch, list, publish, unpublish, delete', async ({ client, assert }) => {
    const user = await createUser()
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(`c${Date.now()}`) })
    const id = created.body().bot.id

    const patched = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ name: 'Renamed', publicId: `renamed-${id}` })
    patched.assertStatus(200)
    assert.equal(patched.body().bot.name, 'Renamed')

    const badPublicId = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ publicId: 'no spaces/allowed' })
    badPublicId.assertStatus(422)
    badPublicId.assertBodyContains({ field: 'publicId' })

    const badContent = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ edges: [{ id: 'x', from: { blockId: 'missing' }, to: { groupId: 'missing' } }] })
    badContent.assertStatus(422)
    badContent.assertBodyContains({ message: 'Error while updating bot' })
    assert.equal((await Bot.findOrFail(id)).name, 'Renamed')

    const emptyTexts = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ theme: { customCss: '' }, settings: { metadata: { title: '' } } })
    emptyTexts.assertStatus(200)
    assert.equal(emptyTexts.body().bot.theme.customCss, '')

    const listed = await client.get(`/api/v1/workspaces/${workspace.id}/bots`).bearerToken(token)
    assert.deepInclude(
      listed.body().bots.map((b: any) => b.id),
      id
    )

    const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)
    published.assertStatus(200)
    assert.isNotNull(published.body().publishedAt)
    assert.isNotNull(await PublishedBot.findBy('bot_id', id))

    // Edit the draft, then restore the published version over it.
    await client.patch(`/api/v1/bots/${id}`).bearerToken(token).json({ groups: [] })
    const restored = await client.post(`/api/v1/bots/${id}/restore-published`).bearerToken(token)
    restored.assertStatus(200)
    assert.lengthOf(restored.body().bot.groups, 1)
    assert.equal(restored.body().bot.name, 'Renamed')

    const closed = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ isClosed: true })
    assert.isTrue(closed.body().bot.isClosed)

    const domain = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ customDomain: 'bot.example.com' })
    domain.assertStatus(200)

    const unpublished = await client.post(`/api/v1/bots/${id}/unpublish`).bearerToken(token)
    unpublished.assertStatus(200)
    assert.isNull(await PublishedBot.findBy('bot_id', id))

    const deleted = await client.delete(`/api/v1/bots/${id}`).bearerToken(token)
    deleted.assertStatus(204)
    assert.isNull(await Bot.find(id))
  })

  test('publishing a bot with a block disabled on the plan is refused with a clear message', async ({
    client,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(`d${Date.now()}`) })
    await PluginPlanSetting.create({ pluginId: 'text input', plan: 'FREE', enabled: false })
    const refused = await client
      .post(`/api/v1/bots/${created.body().bot.id}/publish`)
      .bearerToken(token)
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Block not available on your plan' })
  })

  test('saving a bot that adds a disabled block is refused; existing blocks stay editable', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(`f${Date.now()}`) })
    const bot = created.body().bot
    await PluginPlanSetting.create({ pluginId: 'Code', plan: 'FREE', enabled: false })
    await PluginPlanSetting.create({ pluginId: 'text input', plan: 'FREE', enabled: false })
    const groups = structuredClone(bot.groups)
    groups[0].blocks.push({ id: 'code1', type: 'Code', options: { content: 'return 1' } })
    const refused = await client.patch(`/api/v1/bots/${bot.id}`).bearerToken(token).json({ groups })
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Block not available on your plan' })

    // The text input it already had can still be edited.
    const kept = structuredClone(bot.groups)
    kept[0].blocks[1].options = { ...kept[0].blocks[1].options, isLong: true }
    const saved = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(token)
      .json({ groups: kept })
    saved.assertStatus(200)
    assert.isTrue(saved.body().bot.groups[0].blocks[1].options.isLong)
  })

  test('custom domains need the plan feature', async ({ client }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = await tokenFor(user)
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: v5Bot(`g${Date.now()}`) })
    const refused = await client
      .patch(`/api/v1/bots/${created.body().bot.id}`)
      .bearerToken(token)
      .json({ customDomain: 'chat.example.com' })
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Upgrade needed' })
  })

  test('guests read but cannot write; strangers see nothing', async ({ client }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(await tokenFor(owner))
      .json({ workspaceId: workspace.id, bot: v5Bot(`e${Date.now()}`) })
    const id = created.body().bot.id
    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const guestToken = await tokenFor(guest)
    const read = await client.get(`/api/v1/bots/${id}`).bearerToken(guestToken)
    read.assertStatus(200)
    read.assertBodyContains({ currentUserMode: 'read' })
    ;(
      await client.patch(`/api/v1/bots/${id}`).bearerToken(guestToken).json({ name: 'x' })
    ).assertStatus(403)
    ;(await client.delete(`/api/v1/bots/${id}`).bearerToken(guestToken)).assertStatus(403)

    const stranger = await createUser()
    ;(await client.get(`/api/v1/bots/${id}`).bearerToken(await tokenFor(stranger))).assertStatus(
      404
    )
  })
})
