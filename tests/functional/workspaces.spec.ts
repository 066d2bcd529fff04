import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import WorkspaceInvitation from '#models/workspace_invitation'
import DevMail from '#models/dev_mail'
import { workspacesOf } from '#services/workspace_access'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

test.group('Workspaces', () => {
  test('a new user has one workspace and is its admin', async ({ client, assert }) => {
    const user = await createUser({ name: 'Grace' })
    const response = await client.get('/bots').loginAs(user).withInertia()
    response.assertStatus(200)
    response.assertInertiaComponent('bots/index')
    const props = response.inertiaProps
    assert.lengthOf(props.workspaces, 1)
    assert.equal(props.currentWorkspace.name, "Grace's workspace")
    assert.equal(props.currentWorkspace.role, 'ADMIN')
    assert.equal(props.currentWorkspace.userMode, 'write')
    assert.isTrue(props.currentWorkspace.isOwner)
  })

  test('the Free plan allows one workspace: "Workspace limit reached"', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const response = await client
      .post('/workspaces')
      .header('accept', 'application/json')
      .json({ name: 'Second' })
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(403)
    response.assertBodyContains({
      message: 'Workspace limit reached',
      description:
        'You have reached the maximum number of workspaces allowed in your plan. Please upgrade your plan to create more workspaces.',
    })
    assert.lengthOf(await workspacesOf(user), 1)
  })

  test('an expired plan cannot create a workspace: "Your plan has expired"', async ({ client }) => {
    const user = await createUser()
    await setUserPlan(user, 'STANDARD', -1)
    const response = await client
      .post('/workspaces')
      .header('accept', 'application/json')
      .json({})
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(403)
    response.assertBodyContains({
      message: 'Your plan has expired',
      description: 'Please upgrade your plan to create a new workspace.',
    })
  })

  test('default names get " (1)", " (2)" on duplicates; switching goes to /bots', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ name: 'Lin' })
    await setUserPlan(user, 'STANDARD')
    for (let i = 0; i < 2; i++) {
      const created = await client
        .post('/workspaces')
        .form({})
        .loginAs(user)
        .withCsrfToken()
        .redirects(0)
      created.assertHeader('location', '/bots')
    }
    const names = (await workspacesOf(user)).map((w) => w.name)
    assert.deepEqual(names, ["Lin's workspace", "Lin's workspace (1)", "Lin's workspace (2)"])

    const [first] = await workspacesOf(user)
    const switched = await client
      .post(`/workspaces/${first.id}/switch`)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    switched.assertHeader('location', '/bots')
  })

  test('selection: workspaceId query parameter, then the remembered one, else the first', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ name: 'Sel' })
    await setUserPlan(user, 'STANDARD')
    await client
      .post('/workspaces')
      .form({ name: 'Other' })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    const [first, other] = await workspacesOf(user)
    assert.equal(other.name, 'Other')

    const byQuery = await client.get(`/bots?workspaceId=${other.id}`).loginAs(user).withInertia()
    assert.equal(byQuery.inertiaProps.currentWorkspace.id, other.id)

    const byDefault = await client.get('/bots').loginAs(user).withInertia()
    assert.equal(byDefault.inertiaProps.currentWorkspace.id, first.id)

    const unknown = await client.get('/bots?workspaceId=not-mine').loginAs(user).withInertia()
    assert.equal(unknown.inertiaProps.currentWorkspace.id, first.id)
  })

  test('rename and icon by an admin; members may not', async ({ client, assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const ok = await client
      .patch(`/workspaces/${workspace.id}`)
      .form({ name: 'Renamed', icon: '🚀' })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    ok.assertStatus(302)
    await workspace.refresh()
    assert.equal(workspace.name, 'Renamed')
    assert.equal(workspace.icon, '🚀')

    const member = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: member.id, role: 'MEMBER' })
    const denied = await client
      .patch(`/workspaces/${workspace.id}`)
      .header('accept', 'application/json')
      .json({ name: 'Hacked' })
      .loginAs(member)
      .withCsrfToken()
    denied.assertStatus(403)

    const stranger = await createUser()
    const hidden = await client
      .patch(`/workspaces/${workspace.id}`)
      .header('accept', 'application/json')
      .json({ name: 'Hacked' })
      .loginAs(stranger)
      .withCsrfToken()
    // Not a member: "not found", so the id does not leak (docs/security.md).
    hidden.assertStatus(404)
    await workspace.refresh()
    assert.equal(workspace.name, 'Renamed')
  })

  test('an empty name is refused and nothing saved is lost', async ({ client, assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const response = await client
      .patch(`/workspaces/${workspace.id}`)
      .header('accept', 'application/json')
      .json({ name: '   ' })
      .loginAs(owner)
      .withCsrfToken()
    response.assertStatus(422)
    await workspace.refresh()
    assert.equal(workspace.name, "Test User's workspace")
  })

  test('deleting needs at least 2 workspaces and removes what it holds', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const only = await firstWorkspaceOf(owner)
    const refused = await client
      .delete(`/workspaces/${only.id}`)
      .header('accept', 'application/json')
      .loginAs(owner)
      .withCsrfToken()
    refused.assertStatus(400)
    refused.assertBodyContains({ description: 'You need at least 2 workspaces to delete one.' })

    await setUserPlan(owner, 'STANDARD')
    await client
      .post('/workspaces')
      .form({ name: 'Doomed' })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    const doomed = (await workspacesOf(owner)).find((w) => w.name === 'Doomed')!
    await WorkspaceInvitation.create({
      workspaceId: doomed.id,
      email: uniqueEmail(),
      role: 'MEMBER',
    })
    const deleted = await client
      .delete(`/workspaces/${doomed.id}`)
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    deleted.assertHeader('location', '/bots')
    assert.isNull(await Workspace.find(doomed.id))
    assert.lengthOf(await WorkspaceMember.query().where('workspace_id', doomed.id), 0)
    assert.lengthOf(await WorkspaceInvitation.query().where('workspace_id', doomed.id), 0)
  })

  test('a suspended workspace leads to /suspended, a past-due one to /past-due except /bots/plans', async ({
    client,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    workspace.isPastDue = true
    await workspace.save()
    ;(await client.get('/bots').loginAs(user).redirects(0)).assertHeader('location', '/past-due')
    ;(await client.get('/bots/plans').loginAs(user).withInertia()).assertInertiaComponent(
      'bots/plans'
    )
    ;(await client.get('/past-due').loginAs(user).withInertia()).assertInertiaComponent(
      'workspace/past_due'
    )

    workspace.isSuspended = true
    await workspace.save()
    ;(await client.get('/bots/plans').loginAs(user).redirects(0)).assertHeader(
      'location',
      '/suspended'
    )
    ;(await client.get('/suspended').loginAs(user).withInertia()).assertInertiaComponent(
      'workspace/suspended'
    )
  })
})

test.group('Members and invitations', () => {
  test('"Email required" without an e-mail', async ({ client }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const response = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: '' })
      .loginAs(owner)
      .withCsrfToken()
    response.assertStatus(422)
    response.assertBodyContains({
      message: 'Email required',
      description: 'Please enter an email address to send the invitation.',
      field: 'email',
    })
  })

  test('inviting someone without an account mails an invitation; with an account adds them', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'STANDARD')
    const workspace = await firstWorkspaceOf(owner)

    const newcomer = uniqueEmail('newcomer')
    const invited = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .form({ email: newcomer, role: 'MEMBER' })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    invited.assertFlashMessage('toast', {
      type: 'success',
      title: 'Invitation sent',
      description: newcomer,
    })
    assert.isNotNull(
      await WorkspaceInvitation.query()
        .where('workspace_id', workspace.id)
        .where('email', newcomer)
        .first()
    )
    const mail = await DevMail.query().where('to', newcomer).firstOrFail()
    assert.include(mail.text, `/register?email=${encodeURIComponent(newcomer)}`)

    const colleague = await createUser()
    const added = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .form({ email: colleague.email.toUpperCase(), role: 'GUEST' })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    added.assertFlashMessage('toast', {
      type: 'success',
      title: 'Member added',
      description: colleague.email.toUpperCase(),
    })
    const member = await WorkspaceMember.query()
      .where('workspace_id', workspace.id)
      .where('user_id', colleague.id)
      .firstOrFail()
    assert.equal(member.role, 'GUEST')

    const again = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: colleague.email })
      .loginAs(owner)
      .withCsrfToken()
    again.assertStatus(409)
  })

  test('the member list shows only members of that workspace', async ({ client, assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const other = await createUser()
    const colleague = await createUser()
    await WorkspaceMember.create({
      workspaceId: workspace.id,
      userId: colleague.id,
      role: 'MEMBER',
    })
    const response = await client.get('/settings/workspace/member').loginAs(owner).withInertia()
    response.assertInertiaComponent('settings/index')
    const emails = response.inertiaProps.members.map((m: any) => m.email)
    assert.sameMembers(emails, [owner.email, colleague.email])
    assert.notInclude(emails, other.email)
  })

  test("invitations stay below the workspace plan's multipleUser, for its owner and admins alike", async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    // FREE: multipleUser 2 -> the owner plus one more.
    const first = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: uniqueEmail() })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    first.assertStatus(302)
    const second = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: uniqueEmail() })
      .loginAs(owner)
      .withCsrfToken()
    second.assertStatus(403)
    second.assertBodyContains({ message: 'Member limit reached' })

    // The owner's account plan rises alone: the workspace's plan (FREE) still applies.
    owner.plan = 'STANDARD'
    await owner.save()
    const stillRefused = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: uniqueEmail() })
      .loginAs(owner)
      .withCsrfToken()
    stillRefused.assertStatus(403)

    // The workspace's plan rises (STANDARD: 5 seats): the owner may invite again.
    workspace.plan = 'STANDARD'
    await workspace.save()
    const third = await client
      .post(`/workspaces/${workspace.id}/invitations`)
      .header('accept', 'application/json')
      .json({ email: uniqueEmail() })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    third.assertStatus(302)

    // Another admin, whatever their own account plan, is held by the same plan: with the
    // owner, the admin and 2 invitations, one seat of 5 is left.
    const admin = await createUser()
    await setUserPlan(admin, 'UNLIMITED')
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: admin.id, role: 'ADMIN' })
    const invite = () =>
      client
        .post(`/workspaces/${workspace.id}/invitations`)
        .header('accept', 'application/json')
        .json({ email: uniqueEmail() })
        .loginAs(admin)
        .withCsrfToken()
        .redirects(0)
    ;(await invite()).assertStatus(302)
    ;(await invite()).assertStatus(403)
    assert.lengthOf(await WorkspaceInvitation.query().where('workspace_id', workspace.id), 3)
  })

  test('change a role, remove a member, cancel an invitation; the last admin stays', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'STANDARD')
    const workspace = await firstWorkspaceOf(owner)
    const colleague = await createUser()
    await WorkspaceMember.create({
      workspaceId: workspace.id,
      userId: colleague.id,
      role: 'MEMBER',
    })

    await client
      .patch(`/workspaces/${workspace.id}/members/${colleague.id}`)
      .form({ role: 'GUEST' })
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    const changed = await WorkspaceMember.query()
      .where('workspace_id', workspace.id)
      .where('user_id', colleague.id)
      .firstOrFail()
    assert.equal(changed.role, 'GUEST')

    const demoteSelf = await client
      .patch(`/workspaces/${workspace.id}/members/${owner.id}`)
      .header('accept', 'application/json')
      .json({ role: 'MEMBER' })
      .loginAs(owner)
      .withCsrfToken()
    demoteSelf.assertStatus(400)
    demoteSelf.assertBodyContains({ message: 'A workspace needs an admin' })

    const guestTries = await client
      .delete(`/workspaces/${workspace.id}/members/${owner.id}`)
      .header('accept', 'application/json')
      .loginAs(colleague)
      .withCsrfToken()
    guestTries.assertStatus(403)

    await client
      .delete(`/workspaces/${workspace.id}/members/${colleague.id}`)
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    assert.isNull(
      await WorkspaceMember.query()
        .where('workspace_id', workspace.id)
        .where('user_id', colleague.id)
        .first()
    )

    const invitation = await WorkspaceInvitation.create({
      workspaceId: workspace.id,
      email: uniqueEmail(),
      role: 'MEMBER',
    })
    await client
      .delete(`/workspaces/${workspace.id}/invitations/${invitation.id}`)
      .loginAs(owner)
      .withCsrfToken()
      .redirects(0)
    assert.isNull(await WorkspaceInvitation.find(invitation.id))
  })

  test('the plan page stays reachable and lists the five plans', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client.get('/bots/plans').loginAs(user).withInertia()
    response.assertInertiaComponent('bots/plans')
    assert.deepEqual(
      response.inertiaProps.plans.map((p: any) => p.name),
      ['FREE', 'BASIC', 'STANDARD', 'ENTERPRIZE', 'UNLIMITED']
    )
    const free = response.inertiaProps.plans[0]
    assert.deepInclude(free.limits, {
      vectorLimit: 0,
      userCopilotLimit: 100,
      workflowCreation: 1,
      workflowActivation: 1,
      botCreation: 1,
      botPublish: 1,
      multipleUser: 2,
      multipleWorkspace: 1,
    })
    assert.isFalse(free.features.brandingRemoval)
    assert.isFalse(free.features.workspaceWithFolder)
    assert.isFalse(free.features.userWiseFolderShare)
    assert.equal(free.duration, '2 years')
    void DateTime
  })
})
