import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { closeQueue, startWorkers } from '#queue/queue'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * Live workflows stay live while their draft is edited, every publish, restore and named
 * save is a version of the history (workflows and bots), test runs of the draft stay out of
 * the live version's runs, and disabled nodes are skipped (docs/workflows.md).
 */

const at = { x: 0, y: 0 }

function scriptWorkflow(code: string, triggerOptions: Record<string, unknown>) {
  return {
    name: 'Live',
    blocks: [
      { id: 'trigger', type: 'webhook-trigger', graphCoordinates: at, options: triggerOptions },
      {
        id: 'calc',
        type: 'workflow-script',
        graphCoordinates: { x: 300, y: 0 },
        options: { code },
      },
      {
        id: 'note',
        type: 'workflow-script',
        graphCoordinates: { x: 600, y: 0 },
        options: { code: 'return input' },
      },
    ],
    edges: [
      { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'calc' } },
      { id: 'e2', from: { blockId: 'calc' }, to: { blockId: 'note' } },
    ],
    variables: [],
    settings: {},
  }
}

async function owner() {
  const user = await createUser({ name: 'Ada Builder' })
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `v-${Date.now()}-${Math.random()}`)).value
  return { user, token, workspaceId: workspace.id }
}

async function createWorkflow(
  client: ApiClient,
  who: { token: string; workspaceId: string },
  workflow: unknown
) {
  const created = await client
    .post('/api/v1/workflows')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, workflow })
  created.assertStatus(201)
  return created.body().workflow
}

async function waitForRun(client: ApiClient, token: string, runId: string) {
  for (let i = 0; i < 150; i++) {
    const response = await client.get(`/api/v1/runs/${runId}`).bearerToken(token)
    const run = response.body().run
    if (['success', 'error', 'cancelled'].includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the run did not finish')
}

test.group('Editors: live versions, history, test runs', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('a disabled node is skipped and the Respond node after it answers the webhook', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const workflow = await createWorkflow(client, who, {
      name: 'Skips',
      blocks: [
        {
          id: 'trigger',
          type: 'webhook-trigger',
          graphCoordinates: at,
          options: { method: 'POST', responseMode: 'responseNode' },
        },
        {
          id: 'broken',
          type: 'workflow-script',
          graphCoordinates: { x: 300, y: 0 },
          isDisabled: true,
          options: { code: 'throw new Error("must not run")' },
        },
        {
          id: 'reply',
          type: 'respond-to-webhook',
          graphCoordinates: { x: 600, y: 0 },
          options: { statusCode: 201, body: '{"answered": true}' },
        },
      ],
      edges: [
        { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'broken' } },
        { id: 'e2', from: { blockId: 'broken' }, to: { blockId: 'reply' } },
      ],
      variables: [],
      settings: {},
    })
    ;(
      await client.post(`/api/v1/workflows/${workflow.id}/publish`).bearerToken(who.token)
    ).assertStatus(200)
    ;(
      await client.post(`/api/v1/workflows/${workflow.id}/activate`).bearerToken(who.token)
    ).assertStatus(200)

    const answered = await client.post(`/api/v1/workflows/${workflow.id}/webhook`).json({ n: 1 })
    answered.assertStatus(201)
    assert.deepEqual(answered.body(), { answered: true })

    const runs = await client.get(`/api/v1/workflows/${workflow.id}/runs`).bearerToken(who.token)
    const run = await waitForRun(client, who.token, runs.body().runs[0].id)
    assert.equal(run.status, 'success')
    assert.deepEqual(
      run.nodes.map((node: any) => [node.nodeId, node.status]),
      [
        ['trigger', 'success'],
        ['broken', 'skipped'],
        ['reply', 'success'],
      ]
    )
  })

  test('editing an active workflow keeps its webhook serving the published version until the next publish', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const options = { method: 'POST', responseMode: 'lastNode' }
    const workflow = await createWorkflow(
      client,
      who,
      scriptWorkflow('return { result: Number(input.body.n) * 2 }', options)
    )
    const id = workflow.id
    ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)).assertStatus(200)
    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(
      200
    )
    const call = () => client.post(`/api/v1/workflows/${id}/webhook`).json({ n: 5 })
    const first = await call()
    first.assertStatus(200)
    assert.deepEqual(first.body(), { result: 10 })

    // The draft changes the formula and drops the last node: the live version is untouched.
    const blocks = structuredClone(workflow.blocks)
    blocks[1].options.code = 'return { result: Number(input.body.n) * 3 }'
    const edited = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(who.token)
      .json({ blocks: blocks.slice(0, 2), edges: workflow.edges.slice(0, 1) })
    edited.assertStatus(200)
    assert.equal(edited.body().workflow.status, 'DRAFT')
    assert.isTrue(edited.body().workflow.isActive)
    assert.isNotNull(edited.body().workflow.publishedAt)

    const during = await call()
    during.assertStatus(200)
    assert.deepEqual(during.body(), { result: 10 })

    ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)).assertStatus(200)
    const after = await call()
    after.assertStatus(200)
    assert.deepEqual(after.body(), { result: 15 })

    // Only the builder's switch takes it offline.
    ;(await client.post(`/api/v1/workflows/${id}/deactivate`).bearerToken(who.token)).assertStatus(
      200
    )
    const off = await call()
    off.assertStatus(404)
    off.assertBodyContains({ message: 'This workflow is not active' })
  })

  test('workflow history: a version per publish, restore and named save, with author; restore brings back a deleted node', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const workflow = await createWorkflow(
      client,
      who,
      scriptWorkflow('return { v: 1 }', { method: 'POST' })
    )
    const id = workflow.id
    const history = async () => {
      const response = await client.get(`/api/v1/workflows/${id}/versions`).bearerToken(who.token)
      response.assertStatus(200)
      return response.body().versions as any[]
    }
    const publish = async () =>
      (await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)).assertStatus(
        200
      )
    const save = (body: Record<string, unknown>) =>
      client.patch(`/api/v1/workflows/${id}`).bearerToken(who.token).json(body)

    await publish()
    for (const v of [2, 3]) {
      const blocks = structuredClone(workflow.blocks)
      blocks[1].options.code = `return { v: ${v} }`
      ;(await save({ blocks })).assertStatus(200)
      await publish()
    }
    // Deleting a node after the third publish.
    const withoutNote = structuredClone(workflow.blocks).slice(0, 2)
    withoutNote[1].options.code = 'return { v: 3 }'
    ;(await save({ blocks: withoutNote, edges: workflow.edges.slice(0, 1) })).assertStatus(200)
    const named = await client
      .post(`/api/v1/workflows/${id}/versions`)
      .bearerToken(who.token)
      .json({ name: 'Before the cleanup' })
    named.assertStatus(201)
    ;(
      await client
        .post(`/api/v1/workflows/${id}/versions`)
        .bearerToken(who.token)
        .json({ name: '' })
    ).assertStatus(422)

    const versions = await history()
    assert.deepEqual(
      versions.map((version) => [version.versionName, version.kind]),
      [
        ['Before the cleanup', 'named'],
        ['Version 6', 'draft'],
        ['Version 5', 'publish'],
        ['Version 4', 'draft'],
        ['Version 3', 'publish'],
        ['Version 2', 'draft'],
        ['Initial Version', 'publish'],
      ]
    )
    const publishes = versions.filter((version) => version.kind === 'publish')
    assert.deepEqual(publishes[0].author, {
      id: who.user.id,
      name: 'Ada Builder',
      email: who.user.email,
    })
    assert.isString(publishes[0].createdAt)
    // Each publish kept what it published.
    assert.deepEqual(
      publishes.map((version) => version.workflow.blocks[1].options.code),
      ['return { v: 3 }', 'return { v: 2 }', 'return { v: 1 }']
    )

    const thirdPublish = publishes[0]
    const restored = await client
      .post(`/api/v1/workflows/${id}/versions/${thirdPublish.id}/restore`)
      .bearerToken(who.token)
    restored.assertStatus(200)
    assert.deepEqual(
      restored.body().workflow.blocks.map((block: any) => block.id),
      ['trigger', 'calc', 'note']
    )
    const after = await history()
    assert.deepEqual([after[0].versionName, after[0].kind], ['Version 8', 'restore'])
    assert.lengthOf(after, 8)
    // A later autosave opens a draft version and leaves the restore as it was.
    ;(
      await save({ name: 'Renamed', blocks: withoutNote, edges: workflow.edges.slice(0, 1) })
    ).assertStatus(200)
    const latest = await history()
    assert.deepEqual([latest[0].kind, latest[1].kind], ['draft', 'restore'])
    assert.lengthOf(latest[1].workflow.blocks, 3)
  })

  test('bot history: publishes, restores and named saves are versions; restore brings back a deleted group', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(who.token)
      .json({
        workspaceId: who.workspaceId,
        bot: {
          version: '6',
          name: 'Greeter',
          events: [{ id: 'start', type: 'start', graphCoordinates: at, outgoingEdgeId: 'e0' }],
          groups: [
            {
              id: 'g1',
              title: 'Hello',
              graphCoordinates: { x: 300, y: 0 },
              blocks: [
                {
                  id: 'b1',
                  type: 'text',
                  content: { richText: [{ type: 'p', children: [{ text: 'Hi' }] }] },
                },
              ],
            },
            {
              id: 'g2',
              title: 'Bye',
              graphCoordinates: { x: 600, y: 0 },
              blocks: [
                {
                  id: 'b2',
                  type: 'text',
                  content: { richText: [{ type: 'p', children: [{ text: 'Bye' }] }] },
                },
              ],
            },
          ],
          edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
          variables: [],
          theme: {},
          settings: {},
        },
      })
    created.assertStatus(201)
    const bot = created.body().bot
    const id = bot.id
    const versions = async () => {
      const response = await client.get(`/api/v1/bots/${id}/versions`).bearerToken(who.token)
      response.assertStatus(200)
      return response.body().versions as any[]
    }
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)).assertStatus(200)
    const withoutBye = bot.groups.slice(0, 1)
    ;(
      await client.patch(`/api/v1/bots/${id}`).bearerToken(who.token).json({ groups: withoutBye })
    ).assertStatus(200)
    ;(
      await client
        .post(`/api/v1/bots/${id}/versions`)
        .bearerToken(who.token)
        .json({ name: 'One group' })
    ).assertStatus(201)
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)).assertStatus(200)

    const list = await versions()
    assert.deepEqual(
      list.map((version) => [version.versionName, version.kind]),
      [
        ['Version 4', 'publish'],
        ['One group', 'named'],
        ['Version 2', 'draft'],
        ['Initial Version', 'publish'],
      ]
    )
    assert.equal(list[0].author.name, 'Ada Builder')
    assert.lengthOf(list[3].content.groups, 2)

    const restored = await client
      .post(`/api/v1/bots/${id}/versions/${list[3].id}/restore`)
      .bearerToken(who.token)
    restored.assertStatus(200)
    assert.deepEqual(
      restored.body().bot.groups.map((g: any) => g.title),
      ['Hello', 'Bye']
    )
    const after = await versions()
    assert.equal(after[0].kind, 'restore')
    // The published bot still has one group until the next publish.
    const shown = await client.get(`/api/v1/bots/${id}`).bearerToken(who.token)
    assert.lengthOf(shown.body().bot.groups, 2)
    const unknown = await client
      .post(`/api/v1/bots/${id}/versions/nope/restore`)
      .bearerToken(who.token)
    unknown.assertStatus(404)
  })

  test('a history restore keeps the badge on once the plan no longer removes it', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(who.token)
      .json({ workspaceId: who.workspaceId, bot: { version: '6', name: 'Plain', groups: [] } })
    created.assertStatus(201)
    const bot = created.body().bot
    const unbranded = {
      ...bot.settings,
      general: { ...bot.settings?.general, isBrandingEnabled: false },
    }
    ;(
      await client
        .patch(`/api/v1/bots/${bot.id}`)
        .bearerToken(who.token)
        .json({ settings: unbranded })
    ).assertStatus(200)
    const saved = await client
      .post(`/api/v1/bots/${bot.id}/versions`)
      .bearerToken(who.token)
      .json({ name: 'No badge' })
    saved.assertStatus(201)
    const version = (saved.body().versions as any[]).find((v) => v.versionName === 'No badge')

    await setUserPlan(who.user, 'FREE')
    const restored = await client
      .post(`/api/v1/bots/${bot.id}/versions/${version.id}/restore`)
      .bearerToken(who.token)
    restored.assertStatus(200)
    assert.isTrue(restored.body().bot.settings.general.isBrandingEnabled)
  })

  test('test runs: the unpublished draft runs, with a sample payload, and stays out of the live runs', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const workflow = await createWorkflow(
      client,
      who,
      scriptWorkflow('return { seen: input.body.n }', { method: 'POST', secret: 'x' })
    )
    const id = workflow.id
    // The Run endpoint still runs only a published version.
    ;(
      await client.post(`/api/v1/workflows/${id}/run`).bearerToken(who.token).json({})
    ).assertStatus(400)

    const started = await client
      .post(`/api/v1/workflows/${id}/test-run`)
      .bearerToken(who.token)
      .json({ input: { n: 7 } })
    started.assertStatus(202)
    const run = await waitForRun(client, who.token, started.body().runId)
    assert.equal(run.status, 'success', JSON.stringify(run))
    assert.isTrue(run.isTest)
    assert.deepEqual(run.nodes.find((node: any) => node.nodeId === 'calc').output, { seen: 7 })

    // Not among the workflow's runs, nor its last run.
    const runs = await client.get(`/api/v1/workflows/${id}/runs`).bearerToken(who.token)
    assert.deepEqual(runs.body().runs, [])
    const withTests = await client
      .get(`/api/v1/workflows/${id}/runs?tests=true`)
      .bearerToken(who.token)
    assert.deepEqual(
      withTests.body().runs.map((r: any) => [r.id, r.isTest]),
      [[run.id, true]]
    )
    const list = await client
      .get(`/api/v1/workspaces/${who.workspaceId}/workflows`)
      .bearerToken(who.token)
    assert.isNull(list.body().workflows.find((w: any) => w.id === id).lastRunAt)

    // Published and live: its runs count, a test run of a changed draft does not change them.
    ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)).assertStatus(200)
    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(
      200
    )
    const live = await client
      .post(`/api/v1/workflows/${id}/webhook`)
      .header('x-webhook-secret', 'x')
      .json({ n: 1 })
    live.assertStatus(202)
    await waitForRun(client, who.token, live.body().runId)
    const blocks = structuredClone(workflow.blocks)
    blocks[1].options.code = 'return { draft: true }'
    await client.patch(`/api/v1/workflows/${id}`).bearerToken(who.token).json({ blocks })
    const second = await client
      .post(`/api/v1/workflows/${id}/test-run`)
      .bearerToken(who.token)
      .json({ input: {} })
    const draftRun = await waitForRun(client, who.token, second.body().runId)
    assert.deepEqual(draftRun.nodes.find((node: any) => node.nodeId === 'calc').output, {
      draft: true,
    })
    const counted = await client.get(`/api/v1/workflows/${id}/runs`).bearerToken(who.token)
    assert.deepEqual(
      counted.body().runs.map((r: any) => [r.trigger, r.isTest]),
      [['webhook', false]]
    )

    // A draft that cannot compile says why, as a publish would.
    await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(who.token)
      .json({ blocks: blocks.slice(1), edges: [] })
    const refused = await client
      .post(`/api/v1/workflows/${id}/test-run`)
      .bearerToken(who.token)
      .json({})
    refused.assertStatus(422)
  })
})
