import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import Folder from '#models/folder'
import Result from '#models/result'
import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { group, textBubble, textInput, typebotExport } from '#tests/typebot_exports'
import type User from '#models/user'

/**
 * Typebot's management API paths and shapes, served next to ours
 * (docs/migrating-from-typebot.md): each alias called with an API token, as a script or
 * an n8n node written for Typebot would.
 */

async function tokenFor(user: User) {
  return (await new CreateApiToken().handle(user, `tbapi-${Date.now()}-${Math.random()}`)).value
}

async function owner() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace, token: await tokenFor(user) }
}

function askNameBot(id?: string) {
  return typebotExport({
    id,
    name: 'Ask name',
    startEdgeId: 'e_start',
    groups: [
      group('g1', 'Ask', 0, [textBubble('b_hi', 'Your name?'), textInput('b_name', 'v_name')]),
    ],
    edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
    variables: [{ id: 'v_name', name: 'Name' }],
  })
}

/** A chat through the public chat API: one answer, so a started and completed result. */
async function chat(client: ApiClient, publicId: string, name: string) {
  const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
  start.assertStatus(200)
  await client
    .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
    .json({ message: name })
  return start.body().resultId as string
}

test.group('Typebot management API: typebots', () => {
  test('create, import, list, get, update, publish, unpublish, delete', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await owner()

    const created = await client
      .post('/api/v1/typebots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, typebot: { name: 'From a script' } })
    created.assertStatus(200)
    assert.equal(created.body().typebot.name, 'From a script')
    assert.equal(created.body().typebot.workspaceId, workspace.id)
    assert.isArray(created.body().typebot.groups)

    // An export names the folder it had in Typebot: not one of ours, so ignored.
    const exported: Record<string, any> = {
      ...askNameBot(`tb-${Date.now().toString(36)}`),
      folderId: 'tb-folder-1',
    }
    const imported = await client
      .post('/api/v1/typebots/import')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, typebot: exported })
    imported.assertStatus(200)
    const typebotId = imported.body().typebot.id
    assert.equal(typebotId, exported.id)
    assert.equal(imported.body().typebot.version, '6')
    assert.isNull(imported.body().typebot.folderId)

    const bad = await client
      .post('/api/v1/typebots/import')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, typebot: { hello: 'world' } })
    bad.assertStatus(422)

    const list = await client
      .get('/api/v1/typebots')
      .qs({ workspaceId: workspace.id })
      .bearerToken(token)
    list.assertStatus(200)
    const row = list.body().typebots.find((t: any) => t.id === typebotId)
    assert.deepEqual(row, {
      name: 'Ask name',
      icon: null,
      id: typebotId,
      accessRight: 'write',
      publishedTypebotId: null,
    })
    ;(await client.get('/api/v1/typebots').bearerToken(token)).assertStatus(422)

    const shown = await client.get(`/api/v1/typebots/${typebotId}`).bearerToken(token)
    shown.assertStatus(200)
    assert.equal(shown.body().currentUserMode, 'write')
    assert.equal(shown.body().typebot.groups[0].blocks[1].type, 'text input')

    const updated = await client
      .patch(`/api/v1/typebots/${typebotId}`)
      .bearerToken(token)
      .json({ typebot: { name: 'Renamed', publicId: `renamed-${typebotId}` } })
    updated.assertStatus(200)
    assert.equal(updated.body().typebot.name, 'Renamed')
    assert.equal(updated.body().typebot.publicId, `renamed-${typebotId}`)

    ;(
      await client.get(`/api/v1/typebots/${typebotId}/publishedTypebot`).bearerToken(token)
    ).assertStatus(404)
    const published = await client.post(`/api/v1/typebots/${typebotId}/publish`).bearerToken(token)
    published.assertStatus(200)
    assert.deepEqual(published.body(), { message: 'success' })
    const copy = await client
      .get(`/api/v1/typebots/${typebotId}/publishedTypebot`)
      .bearerToken(token)
    copy.assertStatus(200)
    assert.equal(copy.body().publishedTypebot.typebotId, typebotId)
    const listed = await client
      .get('/api/v1/typebots')
      .qs({ workspaceId: workspace.id })
      .bearerToken(token)
    assert.equal(
      listed.body().typebots.find((t: any) => t.id === typebotId).publishedTypebotId,
      copy.body().publishedTypebot.id
    )
    const start = await client.post(`/api/v1/typebots/renamed-${typebotId}/startChat`).json({})
    start.assertStatus(200)

    const unpublished = await client
      .post(`/api/v1/typebots/${typebotId}/unpublish`)
      .bearerToken(token)
    assert.deepEqual(unpublished.body(), { message: 'success' })
    ;(await client.post(`/api/v1/typebots/renamed-${typebotId}/startChat`).json({})).assertStatus(
      404
    )

    const deleted = await client.delete(`/api/v1/typebots/${typebotId}`).bearerToken(token)
    assert.deepEqual(deleted.body(), { message: 'success' })
    assert.isNull(await Bot.find(typebotId))
  })

  test('same access rules as our API: other workspaces are not found, guests read only', async ({
    client,
    assert,
  }) => {
    const first = await owner()
    const other = await owner()
    const imported = await client
      .post('/api/v1/typebots/import')
      .bearerToken(first.token)
      .json({ workspaceId: first.workspace.id, typebot: askNameBot() })
    const typebotId = imported.body().typebot.id
    ;(await client.get(`/api/v1/typebots/${typebotId}`).bearerToken(other.token)).assertStatus(404)
    ;(
      await client
        .get('/api/v1/typebots')
        .qs({ workspaceId: first.workspace.id })
        .bearerToken(other.token)
    ).assertStatus(404)
    ;(await client.get(`/api/v1/typebots/${typebotId}`)).assertStatus(401)

    await WorkspaceMember.create({
      workspaceId: first.workspace.id,
      userId: other.user.id,
      role: 'GUEST',
    })
    const asGuest = await client.get(`/api/v1/typebots/${typebotId}`).bearerToken(other.token)
    asGuest.assertStatus(200)
    assert.equal(asGuest.body().currentUserMode, 'read')
    ;(
      await client
        .patch(`/api/v1/typebots/${typebotId}`)
        .bearerToken(other.token)
        .json({ typebot: { name: 'No' } })
    ).assertStatus(403)
    ;(
      await client
        .post('/api/v1/typebots')
        .bearerToken(other.token)
        .json({ workspaceId: first.workspace.id, typebot: { name: 'No' } })
    ).assertStatus(403)
  })
})

test.group('Typebot management API: results and analytics', () => {
  test('list with cursor, get one, logs, stats, delete', async ({ client, assert }) => {
    const { workspace, token } = await owner()
    const imported = await client
      .post('/api/v1/typebots/import')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, typebot: askNameBot() })
    const typebotId = imported.body().typebot.id
    await client.post(`/api/v1/typebots/${typebotId}/publish`).bearerToken(token)
    const publicId = (await Bot.findOrFail(typebotId)).publicId!
    const resultIds = []
    for (const name of ['Ada', 'Grace', 'Linus']) resultIds.push(await chat(client, publicId, name))
    // A view without answers is not listed, as there.
    await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})

    const first = await client
      .get(`/api/v1/typebots/${typebotId}/results`)
      .qs({ limit: 2 })
      .bearerToken(token)
    first.assertStatus(200)
    assert.lengthOf(first.body().results, 2)
    assert.isNotNull(first.body().nextCursor)
    const result = first.body().results[0]
    assert.equal(result.typebotId, typebotId)
    assert.equal(result.id, resultIds[2])
    assert.isTrue(result.hasStarted)
    assert.isFalse(result.isArchived)
    assert.deepEqual(result.answers, [
      { blockId: 'b_name', content: 'Linus', attachedFileUrls: [] },
    ])
    assert.equal(result.variables.find((v: any) => v.name === 'Name').value, 'Linus')
    const second = await client
      .get(`/api/v1/typebots/${typebotId}/results`)
      .qs({ limit: 2, cursor: first.body().nextCursor })
      .bearerToken(token)
    assert.deepEqual(
      second.body().results.map((r: any) => r.id),
      [resultIds[0]]
    )
    assert.isNull(second.body().nextCursor)

    // timeFilter: a result of last year is out of the default last 7 days.
    const old = await Result.findOrFail(resultIds[0])
    old.createdAt = old.createdAt.minus({ years: 1 })
    await old.save()
    const recent = await client.get(`/api/v1/typebots/${typebotId}/results`).bearerToken(token)
    assert.lengthOf(recent.body().results, 2)
    const all = await client
      .get(`/api/v1/typebots/${typebotId}/results`)
      .qs({ timeFilter: 'allTime' })
      .bearerToken(token)
    assert.lengthOf(all.body().results, 3)
    ;(
      await client
        .get(`/api/v1/typebots/${typebotId}/results`)
        .qs({ timeFilter: 'someday' })
        .bearerToken(token)
    ).assertStatus(422)

    const one = await client
      .get(`/api/v1/typebots/${typebotId}/results/${resultIds[1]}`)
      .bearerToken(token)
    one.assertStatus(200)
    assert.equal(one.body().result.answers[0].content, 'Grace')

    const logs = await client
      .get(`/api/v1/typebots/${typebotId}/results/${resultIds[1]}/logs`)
      .bearerToken(token)
    logs.assertStatus(200)
    assert.isArray(logs.body().logs)

    const stats = await client
      .get(`/api/v1/typebots/${typebotId}/analytics/stats`)
      .bearerToken(token)
    assert.deepEqual(stats.body(), {
      stats: { totalViews: 4, totalStarts: 3, totalCompleted: 3 },
    })

    const deleted = await client
      .delete(`/api/v1/typebots/${typebotId}/results`)
      .qs({ resultIds: `${resultIds[0]},${resultIds[1]}` })
      .bearerToken(token)
    deleted.assertStatus(200)
    assert.deepEqual(
      (await Result.query().where('bot_id', typebotId)).map((r) => r.id).sort(),
      [
        resultIds[2],
        ...(await Result.query().where('bot_id', typebotId).where('has_started', false)).map(
          (r) => r.id
        ),
      ].sort()
    )
    await client.delete(`/api/v1/typebots/${typebotId}/results`).bearerToken(token)
    assert.lengthOf(await Result.query().where('bot_id', typebotId), 0)
  })
})

test.group('Typebot management API: workspaces and folders', () => {
  test('workspaces: list, get, members, create, update, delete', async ({ client, assert }) => {
    const { user, workspace, token } = await owner()
    const list = await client.get('/api/v1/workspaces').bearerToken(token)
    const row = list.body().workspaces.find((w: any) => w.id === workspace.id)
    assert.include(row, { id: workspace.id, name: workspace.name, plan: workspace.plan })

    const shown = await client.get(`/api/v1/workspaces/${workspace.id}`).bearerToken(token)
    shown.assertStatus(200)
    assert.equal(shown.body().workspace.id, workspace.id)
    assert.isString(shown.body().workspace.createdAt)

    const members = await client
      .get(`/api/v1/workspaces/${workspace.id}/members`)
      .bearerToken(token)
    assert.deepEqual(members.body().members, [
      {
        workspaceId: workspace.id,
        user: { name: user.name, email: user.email, image: user.image },
        role: 'ADMIN',
      },
    ])

    const created = await client
      .post('/api/v1/workspaces')
      .bearerToken(token)
      .json({ name: 'Scripts' })
    created.assertStatus(200)
    const newId = created.body().workspace.id
    const updated = await client
      .patch(`/api/v1/workspaces/${newId}`)
      .bearerToken(token)
      .json({ name: 'Scripts 2' })
    assert.equal(updated.body().workspace.name, 'Scripts 2')
    const stranger = await owner()
    ;(await client.get(`/api/v1/workspaces/${newId}`).bearerToken(stranger.token)).assertStatus(404)
    const deleted = await client.delete(`/api/v1/workspaces/${newId}`).bearerToken(token)
    assert.deepEqual(deleted.body(), { message: 'success' })
    assert.isNull(await Workspace.find(newId))
  })

  test('folders: create, list, get, update, delete; typebots listed by folder', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await owner()
    const created = await client
      .post('/api/v1/folders')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, folderName: 'Support' })
    created.assertStatus(200)
    const folder = created.body().folder
    assert.include(folder, { name: 'Support', parentFolderId: null, workspaceId: workspace.id })
    const child = await client
      .post('/api/v1/folders')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, folderName: 'Child', parentFolderId: folder.id })

    const top = await client
      .get('/api/v1/folders')
      .qs({ workspaceId: workspace.id })
      .bearerToken(token)
    assert.deepEqual(
      top.body().folders.map((f: any) => f.name),
      ['Support']
    )
    const inside = await client
      .get('/api/v1/folders')
      .qs({ workspaceId: workspace.id, parentFolderId: folder.id })
      .bearerToken(token)
    assert.deepEqual(
      inside.body().folders.map((f: any) => f.id),
      [child.body().folder.id]
    )
    const one = await client
      .get(`/api/v1/folders/${folder.id}`)
      .qs({ workspaceId: workspace.id })
      .bearerToken(token)
    assert.equal(one.body().folder.name, 'Support')

    const renamed = await client
      .patch(`/api/v1/folders/${folder.id}`)
      .bearerToken(token)
      .json({ workspaceId: workspace.id, folder: { name: 'Help' } })
    assert.equal(renamed.body().folder.name, 'Help')

    const inFolder = await client
      .post('/api/v1/typebots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, typebot: { name: 'Filed', folderId: folder.id } })
    const listed = await client
      .get('/api/v1/typebots')
      .qs({ workspaceId: workspace.id, folderId: folder.id })
      .bearerToken(token)
    assert.deepEqual(
      listed.body().typebots.map((t: any) => t.id),
      [inFolder.body().typebot.id]
    )

    const deleted = await client
      .delete(`/api/v1/folders/${folder.id}`)
      .qs({ workspaceId: workspace.id })
      .bearerToken(token)
    assert.equal(deleted.body().folder.id, folder.id)
    assert.isNull(await Folder.find(folder.id))
    const stranger = await owner()
    ;(
      await client
        .get(`/api/v1/folders/${child.body().folder.id}`)
        .qs({ workspaceId: workspace.id })
        .bearerToken(stranger.token)
    ).assertStatus(404)
  })
})
