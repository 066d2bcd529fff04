import { test } from '@japa/runner'
import Bot from '#models/bot'
import Folder from '#models/folder'
import FolderShare from '#models/folder_share'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

async function tokenFor(user: User) {
  return (await new CreateApiToken().handle(user, `t-${Date.now()}-${Math.random()}`)).value
}

/** An owner on `plan`, a second admin and two members of the owner's workspace. */
async function team(plan: User['plan']) {
  const owner = await createUser({ name: 'Owner' })
  await setUserPlan(owner, plan)
  const workspace = await firstWorkspaceOf(owner)
  // Members other than the creator are judged by the workspace's plan.
  workspace.plan = plan
  workspace.planEndsAt = owner.planEndsAt
  await workspace.save()
  const join = async (name: string, role: 'ADMIN' | 'MEMBER') => {
    const user = await createUser({ name })
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: user.id, role })
    return user
  }
  return {
    owner,
    workspace,
    admin: await join('Second admin', 'ADMIN'),
    alice: await join('Alice', 'MEMBER'),
    bob: await join('Bob', 'MEMBER'),
  }
}

async function folderWithBot(workspace: Workspace, creator: User, name = 'Sales') {
  const folder = await Folder.create({ workspaceId: workspace.id, name, createdBy: creator.id })
  const bot = await Bot.create({
    workspaceId: workspace.id,
    folderId: folder.id,
    name: `${name} bot`,
    version: '6',
    groups: [],
    edges: [],
    events: [],
    variables: [],
    settings: {},
    theme: {},
  } as any)
  return { folder, bot }
}

test.group('Folder sharing with chosen members', () => {
  test('restricting needs userWiseFolderShare; opening again does not', async ({
    client,
    assert,
  }) => {
    const { owner, workspace } = await team('BASIC')
    const { folder } = await folderWithBot(workspace, owner)
    const page = await client.get('/bots').loginAs(owner).withInertia()
    assert.isFalse(page.inertiaProps.canShareFolders)
    assert.isTrue(page.inertiaProps.folders[0].canShare)

    const refused = await client
      .put(`/api/folders/${folder.id}/sharing`)
      .json({ isRestricted: true, shares: [] })
      .loginAs(owner)
      .withCsrfToken()
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Upgrade needed' })
    assert.isFalse((await Folder.findOrFail(folder.id)).isRestricted)

    const opened = await client
      .put(`/api/folders/${folder.id}/sharing`)
      .json({ isRestricted: false, shares: [] })
      .loginAs(owner)
      .withCsrfToken()
    opened.assertStatus(200)
  })

  test('members without access see neither the folder nor its bots, on any path', async ({
    client,
    assert,
  }) => {
    const { owner, workspace, admin, alice, bob } = await team('STANDARD')
    const { folder, bot } = await folderWithBot(workspace, owner)
    const nested = await Folder.create({
      workspaceId: workspace.id,
      name: 'Nested',
      parentFolderId: folder.id,
    })
    const topBot = await Bot.create({
      workspaceId: workspace.id,
      name: 'Top bot',
      version: '6',
      groups: [],
      edges: [],
      events: [],
      variables: [],
      settings: {},
      theme: {},
    } as any)

    const shared = await client
      .put(`/api/folders/${folder.id}/sharing`)
      .json({ isRestricted: true, shares: [{ userId: alice.id, access: 'view' }] })
      .loginAs(owner)
      .withCsrfToken()
    shared.assertStatus(200)
    assert.isTrue(shared.body().isRestricted)
    const aliceRow = shared.body().members.find((m: any) => m.userId === alice.id)
    assert.equal(aliceRow.access, 'view')
    assert.isNull(shared.body().members.find((m: any) => m.userId === bob.id).access)

    // Bob: the dashboard, the folder's page, the editor, results, the REST and Typebot APIs.
    const top = await client.get('/bots').loginAs(bob).withInertia()
    assert.deepEqual(top.inertiaProps.folders, [])
    assert.deepEqual(top.inertiaProps.allFolders, [])
    assert.deepEqual(
      top.inertiaProps.bots.map((b: any) => b.name),
      ['Top bot']
    )
    ;(await client.get(`/bots?folderId=${folder.id}`).loginAs(bob)).assertStatus(404)
    ;(await client.get(`/bots?folderId=${nested.id}`).loginAs(bob)).assertStatus(404)
    ;(await client.get(`/bots/${bot.id}/edit`).loginAs(bob)).assertStatus(404)
    ;(await client.get(`/bots/${bot.id}/results`).loginAs(bob)).assertStatus(404)
    ;(await client.get(`/api/bots/${bot.id}/results`).loginAs(bob)).assertStatus(404)
    ;(await client.get(`/api/folders/${folder.id}/sharing`).loginAs(bob)).assertStatus(404)
    const moved = await client
      .patch(`/bots/${topBot.id}`)
      .header('accept', 'application/json')
      .json({ folderId: folder.id })
      .loginAs(bob)
      .withCsrfToken()
    moved.assertStatus(404)
    assert.isNull((await Bot.findOrFail(topBot.id)).folderId)
    const renamed = await client
      .patch(`/folders/${folder.id}`)
      .header('accept', 'application/json')
      .json({ name: 'Mine now' })
      .loginAs(bob)
      .withCsrfToken()
    renamed.assertStatus(404)

    const bobToken = await tokenFor(bob)
    const list = await client.get(`/api/v1/workspaces/${workspace.id}/bots`).bearerToken(bobToken)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().bots.map((b: any) => b.name),
      ['Top bot']
    )
    ;(await client.get(`/api/v1/bots/${bot.id}`).bearerToken(bobToken)).assertStatus(404)
    ;(await client.get(`/api/v1/bots/${bot.id}/results`).bearerToken(bobToken)).assertStatus(404)
    const typebots = await client
      .get(`/api/v1/typebots?workspaceId=${workspace.id}`)
      .bearerToken(bobToken)
    assert.deepEqual(
      typebots.body().typebots.map((b: any) => b.name),
      ['Top bot']
    )
    const folders = await client
      .get(`/api/v1/folders?workspaceId=${workspace.id}`)
      .bearerToken(bobToken)
    assert.deepEqual(folders.body().folders, [])
    ;(
      await client
        .get(`/api/v1/folders/${folder.id}?workspaceId=${workspace.id}`)
        .bearerToken(bobToken)
    ).assertStatus(404)
    ;(await client.get(`/api/v1/typebots/${bot.id}/results`).bearerToken(bobToken)).assertStatus(
      404
    )

    // Alice (view access): sees it all, changes nothing, does not manage the sharing.
    const aliceTop = await client.get('/bots').loginAs(alice).withInertia()
    assert.deepEqual(
      aliceTop.inertiaProps.folders.map((f: any) => [f.name, f.access, f.canShare]),
      [['Sales', 'view', false]]
    )
    const inside = await client.get(`/bots?folderId=${folder.id}`).loginAs(alice).withInertia()
    assert.deepEqual(
      inside.inertiaProps.folders.map((f: any) => f.name),
      ['Nested']
    )
    const editor = await client.get(`/bots/${bot.id}/edit`).loginAs(alice).withInertia()
    assert.equal(editor.inertiaProps.currentUserMode, 'read')
    ;(await client.get(`/api/bots/${bot.id}/results`).loginAs(alice)).assertStatus(200)
    const aliceToken = await tokenFor(alice)
    ;(await client.get(`/api/v1/bots/${bot.id}`).bearerToken(aliceToken)).assertStatus(200)
    ;(
      await client.patch(`/api/v1/bots/${bot.id}`).json({ name: 'x' }).bearerToken(aliceToken)
    ).assertStatus(403)
    ;(await client.get(`/api/folders/${folder.id}/sharing`).loginAs(alice)).assertStatus(403)

    // The second admin always sees and edits.
    const adminEditor = await client.get(`/bots/${bot.id}/edit`).loginAs(admin).withInertia()
    assert.equal(adminEditor.inertiaProps.currentUserMode, 'write')
    const adminTop = await client.get('/bots').loginAs(admin).withInertia()
    assert.deepEqual(
      adminTop.inertiaProps.folders.map((f: any) => [f.name, f.access, f.canShare]),
      [['Sales', 'edit', true]]
    )

    // Open to every member again: Bob sees it, the shares are gone.
    await client
      .put(`/api/folders/${folder.id}/sharing`)
      .json({ isRestricted: false, shares: [] })
      .loginAs(admin)
      .withCsrfToken()
    assert.lengthOf(await FolderShare.query().where('folder_id', folder.id), 0)
    const again = await client.get('/bots').loginAs(bob).withInertia()
    assert.deepEqual(
      again.inertiaProps.folders.map((f: any) => f.name),
      ['Sales']
    )
    const bobEditor = await client.get(`/bots/${bot.id}/edit`).loginAs(bob).withInertia()
    assert.equal(bobEditor.inertiaProps.currentUserMode, 'write')
  })

  test('a member who created a folder manages it; edit access writes; non-members refused', async ({
    client,
    assert,
  }) => {
    const { owner, alice, bob } = await team('STANDARD')
    const created = await client
      .post('/folders')
      .json({ name: 'Alice folder' })
      .loginAs(alice)
      .withCsrfToken()
      .redirects(0)
    created.assertStatus(302)
    const folder = await Folder.query().where('name', 'Alice folder').firstOrFail()
    assert.equal(folder.createdBy, alice.id)

    const stranger = await createUser()
    const refused = await client
      .put(`/api/folders/${folder.id}/sharing`)
      .json({ isRestricted: true, shares: [{ userId: stranger.id, access: 'edit' }] })
      .loginAs(alice)
      .withCsrfToken()
    refused.assertStatus(422)

    const ok = await client
      .put(`/api/folders/${folder.id}/sharing`)
      .json({ isRestricted: true, shares: [{ userId: bob.id, access: 'edit' }] })
      .loginAs(alice)
      .withCsrfToken()
    ok.assertStatus(200)
    // Bob, with edit access, puts a new bot in it; the owner (admin) sees it.
    await client
      .post('/bots')
      .json({ name: 'Bob bot', folderId: folder.id })
      .loginAs(bob)
      .withCsrfToken()
      .redirects(0)
    const bobBot = await Bot.query().where('name', 'Bob bot').firstOrFail()
    assert.equal(bobBot.folderId, folder.id)
    const ownerView = await client.get(`/bots?folderId=${folder.id}`).loginAs(owner).withInertia()
    assert.deepEqual(
      ownerView.inertiaProps.bots.map((b: any) => b.name),
      ['Bob bot']
    )
    // Bob does not manage the sharing: only the creator and admins do.
    ;(await client.get(`/api/folders/${folder.id}/sharing`).loginAs(bob)).assertStatus(403)
  })
})
