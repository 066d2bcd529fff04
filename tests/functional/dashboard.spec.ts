import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { writeFile, mkdir } from 'node:fs/promises'
import Bot from '#models/bot'
import Folder from '#models/folder'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

test.group('Dashboard: bots and folders', () => {
  test('create from scratch, list, rename, duplicate, archive, delete', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)
    const created = await client.post('/bots').form({}).loginAs(user).withCsrfToken().redirects(0)
    const bot = await Bot.query().where('workspace_id', workspace.id).firstOrFail()
    created.assertHeader('location', `/bots/${bot.id}/edit`)
    assert.equal(bot.name, 'My bot')
    assert.equal(bot.version, '6')
    assert.lengthOf(bot.events, 1)

    const page = await client.get('/bots').loginAs(user).withInertia()
    page.assertInertiaComponent('bots/index')
    assert.deepEqual(
      page.inertiaProps.bots.map((b: any) => b.name),
      ['My bot']
    )

    await client
      .patch(`/bots/${bot.id}`)
      .form({ name: 'Support' })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    await client.post(`/bots/${bot.id}/duplicate`).loginAs(user).withCsrfToken().redirects(0)
    const names = (await Bot.query().where('workspace_id', workspace.id).orderBy('created_at')).map(
      (b) => b.name
    )
    assert.sameMembers(names, ['Support', 'Support (copy)'])

    await client
      .patch(`/bots/${bot.id}`)
      .json({ isArchived: true })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    const afterArchive = await client.get('/bots').loginAs(user).withInertia()
    assert.deepEqual(
      afterArchive.inertiaProps.bots.map((b: any) => b.name),
      ['Support (copy)']
    )

    await client.delete(`/bots/${bot.id}`).loginAs(user).withCsrfToken().redirects(0)
    assert.isNull(await Bot.find(bot.id))
  })

  test('folders need the plan; nesting; deleting moves contents to the dashboard', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const refused = await client
      .post('/folders')
      .header('accept', 'application/json')
      .json({})
      .loginAs(user)
      .withCsrfToken()
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Upgrade needed' })

    await setUserPlan(user, 'BASIC')
    await client.post('/folders').form({}).loginAs(user).withCsrfToken().redirects(0)
    const folder = await Folder.query().where('workspace_id', workspace.id).firstOrFail()
    assert.equal(folder.name, 'My folder')
    await client
      .post('/folders')
      .json({ name: 'Nested', parentFolderId: folder.id })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    const nested = await Folder.findByOrFail('name', 'Nested')
    assert.equal(nested.parentFolderId, folder.id)

    await client
      .post('/bots')
      .json({ name: 'In folder', folderId: folder.id })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    const inside = await client.get(`/bots?folderId=${folder.id}`).loginAs(user).withInertia()
    assert.deepEqual(
      inside.inertiaProps.bots.map((b: any) => b.name),
      ['In folder']
    )
    assert.deepEqual(
      inside.inertiaProps.folders.map((f: any) => f.name),
      ['Nested']
    )
    assert.deepEqual(
      inside.inertiaProps.breadcrumbs.map((f: any) => f.name),
      ['My folder']
    )

    const loop = await client
      .patch(`/folders/${folder.id}`)
      .header('accept', 'application/json')
      .json({ parentFolderId: nested.id })
      .loginAs(user)
      .withCsrfToken()
    loop.assertStatus(400)

    await client.delete(`/folders/${folder.id}`).loginAs(user).withCsrfToken().redirects(0)
    const top = await client.get('/bots').loginAs(user).withInertia()
    assert.deepEqual(
      top.inertiaProps.bots.map((b: any) => b.name),
      ['In folder']
    )
    assert.deepEqual(
      top.inertiaProps.folders.map((f: any) => f.name),
      ['Nested']
    )
  })

  test('import a file and export it back; a non-bot file creates nothing', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)
    const dir = app.makePath('tmp/test-uploads')
    await mkdir(dir, { recursive: true })
    const good = `${dir}/bot-${Date.now()}.json`
    const bad = `${dir}/bad-${Date.now()}.json`
    await writeFile(
      good,
      JSON.stringify({
        version: '6',
        name: 'From file',
        groups: [],
        events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
        edges: [],
        variables: [],
        theme: {},
        settings: {},
      })
    )
    await writeFile(bad, JSON.stringify({ some: 'thing' }))

    const imported = await client
      .post('/bots/import')
      .file('file', good)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    imported.assertHeader('location', '/bots')
    const bot = await Bot.query()
      .where('workspace_id', workspace.id)
      .where('name', 'From file')
      .firstOrFail()

    const refused = await client
      .post('/bots/import')
      .header('referer', '/bots')
      .file('file', bad)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    refused.assertFlashMessage('toast', {
      type: 'error',
      title: "Failed to parse the file. Are you sure it's a bot?",
    })
    assert.lengthOf(await Bot.query().where('workspace_id', workspace.id), 1)

    const exported = await client.get(`/bots/${bot.id}/export`).loginAs(user)
    exported.assertStatus(200)
    assert.match(exported.header('content-disposition') ?? '', /From-file\.json/)
    assert.equal(exported.body().version, '6')
    assert.equal(exported.body().name, 'From file')

    // The same file imported again sits beside its original under a name of its own.
    for (let i = 0; i < 2; i++) {
      await client
        .post('/bots/import')
        .file('file', good)
        .loginAs(user)
        .withCsrfToken()
        .redirects(0)
    }
    const names = await Bot.query().where('workspace_id', workspace.id).orderBy('name')
    assert.deepEqual(
      names.map((row) => row.name),
      ['From file', 'From file (1)', 'From file (2)']
    )
  })
})

test.group('Dashboard: staying in the folder', () => {
  test('a change made inside a folder comes back to that folder', async ({ client }) => {
    const user = await createUser()
    await setUserPlan(user, 'BASIC')
    const workspace = await firstWorkspaceOf(user)
    const folder = await Folder.create({
      workspaceId: workspace.id,
      name: 'Sales',
      parentFolderId: null,
    })
    const response = await client
      .post('/folders')
      .header('referer', `/bots?folderId=${folder.id}`)
      .json({ name: 'EMEA', parentFolderId: folder.id })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    response.assertHeader('location', `/bots?folderId=${folder.id}`)
  })
})
