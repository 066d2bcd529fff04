import { test } from '@japa/runner'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import { resetPluginSettings } from '#services/marketplace'
import WorkspaceMember from '#models/workspace_member'
import { createUser } from '#tests/helpers'
import { tokenFor, workflowFile, setup } from '#tests/functional/workflow_api_fixtures'

test.group('Workflows REST API: history, lists, access and pages', (group) => {
  group.each.teardown(async () => {
    await resetPluginSettings()
  })

  test("history: 'Initial Version', then 'Version N'; a person's saves update their open draft version; restore", async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup()
    const file = workflowFile()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: file })
    const id = created.body().workflow.id
    const names = async () => {
      const history = await client.get(`/api/v1/workflows/${id}/versions`).bearerToken(token)
      history.assertStatus(200)
      return history.body().versions.map((v: any) => `${v.versionName}/${v.updatedBy}`)
    }
    const empty = await client.get(`/api/v1/workflows/${id}/versions`).bearerToken(token)
    assert.deepEqual(empty.body(), { versions: [], updatedAt: null })

    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ name: 'One' })
    assert.deepEqual(await names(), ['Initial Version/user'])
    const blocks = structuredClone(file.blocks) as any[]
    blocks[1].options.value = 'edited by hand'
    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ blocks })
    assert.deepEqual(await names(), ['Initial Version/user'])
    const initial = await WorkflowVersion.findByOrFail('workflow_id', id)
    assert.equal((initial.workflow.blocks[1].options as any).value, 'edited by hand')

    const aiBlocks = structuredClone(blocks)
    aiBlocks[1].options.value = 'written by the copilot'
    const byAi = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ blocks: aiBlocks, updatedBy: 'assistant' })
    assert.equal(byAi.body().workflow.updatedBy, 'assistant')
    assert.isTrue(byAi.body().workflow.isModifiedByAi)
    assert.deepEqual(await names(), ['Version 2/assistant', 'Initial Version/user'])

    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ name: 'Two' })
    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ name: 'Three' })
    assert.deepEqual(await names(), [
      'Version 3/user',
      'Version 2/assistant',
      'Initial Version/user',
    ])

    // Restoring the builder's own version undoes the copilot's change, as a new version.
    await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(token)
    const restored = await client
      .post(`/api/v1/workflows/${id}/versions/${initial.id}/restore`)
      .bearerToken(token)
    restored.assertStatus(200)
    const workflow = restored.body().workflow
    assert.equal(workflow.blocks[1].options.value, 'edited by hand')
    assert.equal(workflow.name, 'Three')
    assert.equal(workflow.status, 'DRAFT')
    // Only the draft changed: the published version keeps running.
    assert.isTrue(workflow.isActive)
    assert.deepEqual(await names(), [
      'Version 5/user',
      'Version 4/user',
      'Version 3/user',
      'Version 2/assistant',
      'Initial Version/user',
    ])

    const unknown = await client
      .post(`/api/v1/workflows/${id}/versions/nope/restore`)
      .bearerToken(token)
    unknown.assertStatus(404)
    unknown.assertBodyContains({ message: 'Version not found' })
  })

  test("the copilot's first change keeps the builder's work as 'Initial Version'", async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup()
    const file = workflowFile()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: file })
    const id = created.body().workflow.id
    await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ name: 'Copilot name', updatedBy: 'assistant' })
    const history = await client.get(`/api/v1/workflows/${id}/versions`).bearerToken(token)
    const versions = history.body().versions
    assert.deepEqual(
      versions.map((v: any) => [v.versionName, v.updatedBy, v.workflow.name]),
      [
        ['Version 2', 'assistant', 'Copilot name'],
        ['Initial Version', 'user', 'Order follow-up'],
      ]
    )
    assert.isString(history.body().updatedAt)
  })

  test('list with status, activity and search', async ({ client, assert }) => {
    const { workspace, token } = await setup('BASIC')
    const a = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: { ...workflowFile(), name: 'Invoices 100%' } })
    await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({
        workspaceId: workspace.id,
        workflow: { ...workflowFile(), name: 'Newsletter', description: 'Weekly invoices digest' },
      })
    await client.post(`/api/v1/workflows/${a.body().workflow.id}/publish`).bearerToken(token)
    await client.post(`/api/v1/workflows/${a.body().workflow.id}/activate`).bearerToken(token)

    const all = await client.get(`/api/v1/workspaces/${workspace.id}/workflows`).bearerToken(token)
    all.assertStatus(200)
    const rows = all.body().workflows
    assert.lengthOf(rows, 2)
    const invoices = rows.find((row: any) => row.name === 'Invoices 100%')
    assert.include(invoices, { status: 'PUBLISHED', isActive: true, lastRunAt: null })
    assert.isString(invoices.updatedAt)

    const search = async (q: string) =>
      (
        await client
          .get(`/api/v1/workspaces/${workspace.id}/workflows`)
          .qs({ q })
          .bearerToken(token)
      )
        .body()
        .workflows.map((row: any) => row.name)
        .sort()
    assert.deepEqual(await search('INVOICES'), ['Invoices 100%', 'Newsletter'])
    assert.deepEqual(await search('news'), ['Newsletter'])
    assert.deepEqual(await search('100%'), ['Invoices 100%'])
    assert.deepEqual(await search('0_'), [])
  })

  test('access: members by role, strangers see nothing, the session works too', async ({
    client,
    assert,
  }) => {
    const { user: owner, workspace, token } = await setup()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: workflowFile() })
    const id = created.body().workflow.id

    const viaSession = await client.get(`/api/v1/workflows/${id}`).loginAs(owner)
    viaSession.assertStatus(200)
    assert.equal(viaSession.body().workflow.id, id)

    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const guestToken = await tokenFor(guest)
    const read = await client.get(`/api/v1/workflows/${id}`).bearerToken(guestToken)
    read.assertStatus(200)
    read.assertBodyContains({ currentUserMode: 'read' })
    ;(await client.get(`/api/v1/workflows/${id}/versions`).bearerToken(guestToken)).assertStatus(
      200
    )
    const patch = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(guestToken)
      .json({ name: 'x' })
    patch.assertStatus(403)
    patch.assertBodyContains({ description: 'You can only view this workflow.' })
    for (const action of ['publish', 'activate', 'deactivate', 'duplicate']) {
      ;(
        await client.post(`/api/v1/workflows/${id}/${action}`).bearerToken(guestToken)
      ).assertStatus(403)
    }
    ;(await client.delete(`/api/v1/workflows/${id}`).bearerToken(guestToken)).assertStatus(403)
    const guestCreate = await client
      .post('/api/v1/workflows')
      .bearerToken(guestToken)
      .json({ workspaceId: workspace.id })
    guestCreate.assertStatus(403)

    const stranger = await createUser()
    const strangerToken = await tokenFor(stranger)
    for (const response of [
      await client.get(`/api/v1/workflows/${id}`).bearerToken(strangerToken),
      await client.patch(`/api/v1/workflows/${id}`).bearerToken(strangerToken).json({ name: 'x' }),
      await client.get(`/api/v1/workflows/${id}/versions`).bearerToken(strangerToken),
      await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(strangerToken),
      await client.delete(`/api/v1/workflows/${id}`).bearerToken(strangerToken),
      await client.get(`/api/v1/workspaces/${workspace.id}/workflows`).bearerToken(strangerToken),
      await client.get(`/workflows/${id}/export`).loginAs(stranger),
    ]) {
      response.assertStatus(404)
    }
    const strangerPage = await client.get(`/workflows/${id}`).loginAs(stranger).withInertia()
    strangerPage.assertStatus(404)
    ;(await client.get(`/api/v1/workflows/${id}`)).assertStatus(401)

    const deleted = await client.delete(`/api/v1/workflows/${id}`).bearerToken(token)
    deleted.assertStatus(204)
    assert.isNull(await Workflow.find(id))
    assert.lengthOf(await WorkflowVersion.query().where('workflow_id', id), 0)
  })

  test('pages: the list, creating by POST (GET /workflows/create creates nothing) and the editor page props', async ({
    client,
    assert,
  }) => {
    const { user, workspace } = await setup()
    const empty = await client.get('/workflows').loginAs(user).withInertia()
    empty.assertInertiaComponent('workflows/index')
    assert.deepEqual(empty.inertiaProps.workflows, [])
    assert.equal(empty.inertiaProps.q, '')

    const asked = await client.get('/workflows/create').loginAs(user).redirects(0)
    asked.assertStatus(302)
    assert.equal(asked.header('location'), '/workflows')
    assert.equal((await Workflow.query().where('workspace_id', workspace.id)).length, 0)
    // Without the CSRF token, nothing either: a cross-site form cannot create one.
    const forged = await client.post('/workflows').form({}).loginAs(user).redirects(0)
    assert.notMatch(forged.header('location') ?? '', /^\/workflows\/[a-z0-9]+$/)
    assert.equal((await Workflow.query().where('workspace_id', workspace.id)).length, 0)

    const created = await client
      .post('/workflows')
      .form({})
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    created.assertStatus(302)
    const location = created.header('location') ?? ''
    assert.match(location, /^\/workflows\/[a-z0-9]+$/)
    const id = location.split('/').pop()!
    assert.equal((await Workflow.findOrFail(id)).workspaceId, workspace.id)

    const listed = await client.get('/workflows').qs({ q: 'my' }).loginAs(user).withInertia()
    assert.deepEqual(
      listed.inertiaProps.workflows.map((w: any) => [w.id, w.status, w.isActive]),
      [[id, 'DRAFT', false]]
    )

    const editor = await client.get(`/workflows/${id}`).loginAs(user).withInertia()
    editor.assertInertiaComponent('workflows/edit')
    assert.equal(editor.inertiaProps.currentUserMode, 'write')
    assert.equal(editor.inertiaProps.workflow.id, id)
    const trigger = editor.inertiaProps.plugins.find((p: any) => p.id === 'manual-trigger')
    assert.include(trigger, { category: 'trigger', locked: false })
    assert.properties(trigger, ['name', 'icon', 'defaults', 'form'])
    assert.isUndefined(editor.inertiaProps.plugins.find((p: any) => p.id === 'text input'))

    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const asGuest = await client.get(`/workflows/${id}`).loginAs(guest).withInertia()
    assert.equal(asGuest.inertiaProps.currentUserMode, 'read')

    const removed = await client
      .delete(`/workflows/${id}`)
      .loginAs(user)
      .withCsrfToken()
      .header('referer', '/workflows')
      .redirects(0)
    removed.assertStatus(302)
    assert.isNull(await Workflow.find(id))
  })

  test('the OpenAPI document describes every workflow route', async ({ client, assert }) => {
    const doc = (await client.get('/api/docs/openapi.json')).body()
    const expected: [string, string][] = [
      ['/api/v1/workflows', 'post'],
      ['/api/v1/workspaces/{id}/workflows', 'get'],
      ['/api/v1/workflows/{id}', 'get'],
      ['/api/v1/workflows/{id}', 'patch'],
      ['/api/v1/workflows/{id}', 'delete'],
      ['/api/v1/workflows/{id}/publish', 'post'],
      ['/api/v1/workflows/{id}/activate', 'post'],
      ['/api/v1/workflows/{id}/deactivate', 'post'],
      ['/api/v1/workflows/{id}/duplicate', 'post'],
      ['/api/v1/workflows/{id}/versions', 'get'],
      ['/api/v1/workflows/{id}/versions/{versionId}/restore', 'post'],
    ]
    for (const [path, method] of expected) {
      assert.property(doc.paths[path] ?? {}, method, `${method} ${path}`)
    }
  })
})
