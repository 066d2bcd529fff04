import { test } from '@japa/runner'
import { resetPluginSettings } from '#services/marketplace'
import Workflow from '#models/workflow'
import PluginPlanSetting from '#models/plugin_plan_setting'
import {
  onWorkflowActivated,
  onWorkflowDeactivated,
  type WorkflowActivatedEvent,
  type WorkflowDeactivatedEvent,
} from '#services/workflow_events'
import { setUserPlan } from '#tests/helpers'
import { workflowFile, setup } from '#tests/functional/workflow_api_fixtures'

test.group('Workflows REST API', (group) => {
  group.each.teardown(async () => {
    await resetPluginSettings()
  })

  test('import keeps the content and a free id, as an inactive draft; export round-trips', async ({
    client,
    assert,
  }) => {
    const { user, workspace, token } = await setup('STANDARD')
    const file = workflowFile()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: file })
    created.assertStatus(201)
    const workflow = created.body().workflow
    assert.equal(created.body().currentUserMode, 'write')
    assert.equal(workflow.id, file.id)
    assert.equal(workflow.status, 'DRAFT')
    assert.isFalse(workflow.isActive)
    assert.isNull(workflow.executableWorkflow)
    assert.deepEqual(workflow.blocks, file.blocks)
    assert.deepEqual(workflow.edges, file.edges)
    assert.equal(workflow.settings.timeout, 120)
    assert.equal(workflow.settings.errorHandling.retryDelay, 1000)

    const exported = await client.get(`/workflows/${file.id}/export`).loginAs(user)
    exported.assertStatus(200)
    assert.match(
      exported.header('content-disposition') ?? '',
      /attachment; filename="Order-follow-up.json"/
    )
    const json = exported.body()
    for (const key of ['name', 'description', 'icon', 'blocks', 'edges', 'variables', 'settings']) {
      assert.deepEqual(json[key], workflow[key], key)
    }

    // The same file again: the id is taken, so a new one; the content is the same.
    const again = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: JSON.stringify(json) })
    again.assertStatus(201)
    const copy = again.body().workflow
    assert.notEqual(copy.id, file.id)
    for (const key of ['name', 'description', 'icon', 'blocks', 'edges', 'variables', 'settings']) {
      assert.deepEqual(copy[key], json[key], key)
    }

    // The list page's import takes the same file.
    const imported = await client
      .post('/workflows/import')
      .loginAs(user)
      .withCsrfToken()
      .json({ workflow: json })
      .redirects(0)
    imported.assertStatus(302)
    assert.equal(imported.header('location'), '/workflows')
    assert.lengthOf(await Workflow.query().where('workspace_id', workspace.id), 3)
  })

  test('a body that is not a workflow is refused and creates nothing', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup()
    for (const workflow of [{ hello: 'world' }, '{ nope', { blocks: [{ type: 'no id' }] }]) {
      const response = await client
        .post('/api/v1/workflows')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, workflow })
      response.assertStatus(422)
      response.assertBodyContains({
        message: "Failed to parse the file. Are you sure it's a workflow?",
        field: 'workflow',
      })
    }
    const duplicateIds = workflowFile()
    duplicateIds.edges.push({
      id: 'trigger',
      from: { blockId: 'trigger' },
      to: { blockId: 'remember' },
    })
    const invalid = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: duplicateIds })
    invalid.assertStatus(422)
    invalid.assertBodyContains({
      message: "Failed to parse the file. Are you sure it's a workflow?",
      description: 'edges.1.id: Id "trigger" is already used at blocks.0',
    })
    assert.lengthOf(await Workflow.query().where('workspace_id', workspace.id), 0)
  })

  test('creation counts against workflowCreation; archived workflows do not', async ({
    client,
    assert,
  }) => {
    const { user, workspace, token } = await setup()
    const first = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, name: 'First' })
    first.assertStatus(201)
    assert.equal(first.body().workflow.name, 'First')
    assert.deepEqual(first.body().workflow.blocks, [])

    const second = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: workflowFile() })
    second.assertStatus(403)
    second.assertBodyContains({ message: 'Workflow limit reached' })
    const fromPage = await client
      .post('/workflows')
      .form({})
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    fromPage.assertStatus(302)
    assert.notMatch(fromPage.header('location') ?? '', /^\/workflows\/c/)

    const id = first.body().workflow.id
    const archived = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ isArchived: true })
    assert.isTrue(archived.body().workflow.isArchived)
    const listed = await client
      .get(`/api/v1/workspaces/${workspace.id}/workflows`)
      .bearerToken(token)
    assert.lengthOf(listed.body().workflows, 0)

    const third = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: workflowFile() })
    third.assertStatus(201)

    const unarchive = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ isArchived: false })
    unarchive.assertStatus(403)
    unarchive.assertBodyContains({ message: 'Workflow limit reached' })

    await setUserPlan(user, 'BASIC')
    const duplicate = await client
      .post(`/api/v1/workflows/${third.body().workflow.id}/duplicate`)
      .bearerToken(token)
    duplicate.assertStatus(201)
    assert.equal(duplicate.body().workflow.name, 'Order follow-up (copy)')
    assert.equal(duplicate.body().workflow.status, 'DRAFT')
  })

  test('status rules: publish before activating; editing after publishing makes the draft a DRAFT while the live version stays active', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup()
    const activated: WorkflowActivatedEvent[] = []
    const deactivated: WorkflowDeactivatedEvent[] = []
    const stops = [
      onWorkflowActivated((event) => {
        activated.push(event)
      }),
      onWorkflowDeactivated((event) => {
        deactivated.push(event)
      }),
    ]
    try {
      const created = await client
        .post('/api/v1/workflows')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, workflow: workflowFile() })
      const id = created.body().workflow.id

      const early = await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(token)
      early.assertStatus(409)
      early.assertBodyContains({ message: 'Publish the workflow before activating it' })

      const published = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
      published.assertStatus(200)
      const workflow = published.body().workflow
      assert.equal(workflow.status, 'PUBLISHED')
      assert.isNotNull(workflow.publishedAt)
      assert.isFalse(workflow.isActive)
      assert.equal(workflow.executableWorkflow.root_block, 'trigger')
      assert.deepEqual(workflow.executableWorkflow.wait_blocks, [])
      assert.lengthOf(workflow.executableWorkflow.blocks, 2)

      const active = await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(token)
      active.assertStatus(200)
      assert.isTrue(active.body().workflow.isActive)
      assert.lengthOf(activated, 1)
      assert.equal(activated[0].workflowId, id)
      assert.equal(activated[0].executableWorkflow.root_block, 'trigger')

      // Renaming or changing settings keeps it published and running.
      const renamed = await client
        .patch(`/api/v1/workflows/${id}`)
        .bearerToken(token)
        .json({ name: 'Renamed', settings: { ...workflow.settings, timeout: 60 } })
      renamed.assertStatus(200)
      assert.equal(renamed.body().workflow.status, 'PUBLISHED')
      assert.isTrue(renamed.body().workflow.isActive)

      // The same nodes with their keys in another order are no change.
      const reordered = workflow.blocks.map((block: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(block).reverse())
      )
      const same = await client
        .patch(`/api/v1/workflows/${id}`)
        .bearerToken(token)
        .json({ blocks: reordered })
      assert.equal(same.body().workflow.status, 'PUBLISHED')

      const moved = structuredClone(workflow.blocks)
      moved[1].graphCoordinates = { x: 420.456, y: 10 }
      const edited = await client
        .patch(`/api/v1/workflows/${id}`)
        .bearerToken(token)
        .json({ blocks: moved })
      edited.assertStatus(200)
      assert.equal(edited.body().workflow.status, 'DRAFT')
      // The published version keeps serving: no deactivation, the compiled copy unchanged.
      assert.isTrue(edited.body().workflow.isActive)
      assert.deepEqual(
        edited.body().workflow.executableWorkflow.blocks[1].graphCoordinates,
        workflow.blocks[1].graphCoordinates
      )
      assert.deepEqual(edited.body().workflow.blocks[1].graphCoordinates, { x: 420.46, y: 10 })
      assert.deepEqual(deactivated, [])

      // Publishing again swaps the live version: the trigger restarts on it.
      const republished = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
      assert.equal(republished.body().workflow.status, 'PUBLISHED')
      assert.isTrue(republished.body().workflow.isActive)
      assert.deepEqual(republished.body().workflow.executableWorkflow.blocks[1].graphCoordinates, {
        x: 420.46,
        y: 10,
      })
      assert.deepEqual(deactivated, [
        { workflowId: id, workspaceId: workspace.id, reason: 'republished' },
      ])
      assert.lengthOf(activated, 2)

      // Edges count too.
      const unlinked = await client
        .patch(`/api/v1/workflows/${id}`)
        .bearerToken(token)
        .json({ edges: [], blocks: moved.map(({ outgoingEdgeId, ...block }: any) => block) })
      assert.equal(unlinked.body().workflow.status, 'DRAFT')
      assert.isTrue(unlinked.body().workflow.isActive)

      // Deactivating by hand.
      await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
      await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(token)
      const off = await client.post(`/api/v1/workflows/${id}/deactivate`).bearerToken(token)
      off.assertStatus(200)
      assert.isFalse(off.body().workflow.isActive)
      assert.equal(off.body().workflow.status, 'PUBLISHED')
      assert.equal(deactivated.at(-1)!.reason, 'deactivated')
    } finally {
      for (const stop of stops) stop()
    }
  })

  test('publishing refuses an LLM agent without its Model attachment, names the node', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup()
    const file = workflowFile()
    file.blocks.push({
      id: 'agent',
      type: 'workflow-llm-agent',
      graphCoordinates: { x: 600, y: 0 },
      title: 'Support agent',
      options: { userQuery: 'Hello' },
    } as any)
    file.blocks[1].outgoingEdgeId = 'e2'
    file.edges.push({ id: 'e2', from: { blockId: 'remember' }, to: { blockId: 'agent' } })
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: file })
    const id = created.body().workflow.id

    const refused = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    refused.assertStatus(422)
    refused.assertBodyContains({ message: '"Support agent" needs a Model attachment' })

    // Plugged in, it publishes; a disabled agent needs nothing either.
    const blocks = [
      ...structuredClone(file.blocks),
      // Its Account and Model are required: a node without them is refused like any field.
      {
        id: 'model',
        type: 'groq-chat-model',
        graphCoordinates: { x: 600, y: 200 },
        options: { credentialsId: 'groq-account', model: 'llama-3.3-70b-versatile' },
      },
    ]
    const edges = [
      ...structuredClone(file.edges),
      {
        id: 'a1',
        from: { blockId: 'agent' },
        to: { blockId: 'model' },
        isAttachment: true,
        attachmentName: 'model',
      },
    ]
    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ blocks, edges })
    const published = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    published.assertStatus(200)
    assert.equal((await Workflow.findOrFail(id)).status, 'PUBLISHED')
  })

  test('publishing needs exactly one enabled trigger and plugins enabled on the plan', async ({
    client,
  }) => {
    const { workspace, token } = await setup()
    const file = workflowFile()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: file })
    const id = created.body().workflow.id
    const blocks = structuredClone(file.blocks) as any[]

    blocks[0].isDisabled = true
    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ blocks })
    const none = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    none.assertStatus(422)
    none.assertBodyContains({
      message: 'A workflow needs one trigger',
      description: 'Add a trigger node (or enable the one you have), then publish again.',
    })

    blocks[0].isDisabled = false
    blocks.push({ id: 'second', type: 'manual-trigger', graphCoordinates: { x: 0, y: 200 } })
    await client.patch(`/api/v1/workflows/${id}`).bearerToken(token).json({ blocks })
    const two = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    two.assertStatus(422)
    two.assertBodyContains({ message: 'A workflow needs one trigger' })

    await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ blocks: blocks.slice(0, 2) })
    await PluginPlanSetting.create({
      pluginId: 'workflow-set-variable',
      plan: 'FREE',
      enabled: false,
    })
    const refused = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Block not available on your plan' })

    // Adding a node disabled on the plan is refused at save time too.
    await PluginPlanSetting.create({ pluginId: 'workflow-script', plan: 'FREE', enabled: false })
    const added = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({
        blocks: [
          ...blocks.slice(0, 2),
          { id: 'code', type: 'workflow-script', graphCoordinates: { x: 600, y: 0 } },
        ],
      })
    added.assertStatus(403)

    const invalid = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ edges: [{ id: 'x', from: { blockId: 'ghost' }, to: { blockId: 'trigger' } }] })
    invalid.assertStatus(422)
    invalid.assertBodyContains({
      message: 'Error while updating workflow',
      description: 'edges.0.from.blockId: No node has the id "ghost"',
    })

    const schedule = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({
        blocks: [
          {
            id: 'tick',
            type: 'schedule-trigger',
            graphCoordinates: { x: 0, y: 0 },
            options: { mode: 'daily', hour: 24 },
          },
        ],
        edges: [],
      })
    schedule.assertStatus(422)
    schedule.assertBodyContains({
      description: 'blocks.0.options.hour: hour must be a whole number from 0 to 23',
    })
  })

  test('activation counts the active workflows of the workspace against workflowActivation', async ({
    client,
    assert,
  }) => {
    const { user, workspace, token } = await setup('BASIC')
    const ids: string[] = []
    for (let i = 0; i < 2; i++) {
      const created = await client
        .post('/api/v1/workflows')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, workflow: workflowFile() })
      ids.push(created.body().workflow.id)
      ;(await client.post(`/api/v1/workflows/${ids[i]}/publish`).bearerToken(token)).assertStatus(
        200
      )
    }
    // The Free plan allows one active workflow.
    await setUserPlan(user, 'FREE')
    ;(await client.post(`/api/v1/workflows/${ids[0]}/activate`).bearerToken(token)).assertStatus(
      200
    )
    // Activating what is already active is no new activation.
    ;(await client.post(`/api/v1/workflows/${ids[0]}/activate`).bearerToken(token)).assertStatus(
      200
    )
    const refused = await client.post(`/api/v1/workflows/${ids[1]}/activate`).bearerToken(token)
    refused.assertStatus(403)
    refused.assertBodyContains({ message: 'Active workflow limit reached' })
    assert.isFalse((await Workflow.findOrFail(ids[1])).isActive)

    await client.post(`/api/v1/workflows/${ids[0]}/deactivate`).bearerToken(token)
    ;(await client.post(`/api/v1/workflows/${ids[1]}/activate`).bearerToken(token)).assertStatus(
      200
    )

    // Archiving stops it, and archived workflows cannot be activated.
    await client.patch(`/api/v1/workflows/${ids[1]}`).bearerToken(token).json({ isArchived: true })
    assert.isFalse((await Workflow.findOrFail(ids[1])).isActive)
    ;(await client.post(`/api/v1/workflows/${ids[0]}/activate`).bearerToken(token)).assertStatus(
      200
    )
  })
})
