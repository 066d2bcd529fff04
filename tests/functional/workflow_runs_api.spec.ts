import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { closeQueue, startWorkers } from '#queue/queue'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * Runs end to end: a workflow imported, published and activated through the REST API,
 * started by its webhook and by the Run endpoint, with the in-process queue working.
 */

const at = { x: 0, y: 0 }

function doublingWorkflow(options: Record<string, unknown>) {
  return {
    name: 'Doubler',
    blocks: [
      { id: 'trigger', type: 'webhook-trigger', graphCoordinates: at, options },
      {
        id: 'double',
        type: 'workflow-script',
        graphCoordinates: { x: 300, y: 0 },
        options: { code: 'return { doubled: Number(input.body?.n ?? input.n ?? 0) * 2 }' },
      },
    ],
    edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'double' } }],
    variables: [],
    settings: {},
  }
}

async function owner() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `wf-${Date.now()}-${Math.random()}`)).value
  return { user, token, workspaceId: workspace.id }
}

async function waitForRun(client: ApiClient, token: string, runId: string) {
  for (let i = 0; i < 100; i++) {
    const response = await client.get(`/api/v1/runs/${runId}`).bearerToken(token)
    const run = response.body().run
    if (['success', 'error', 'cancelled'].includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the run did not finish')
}

test.group('Workflow runs through the API', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('a webhook starts a run of an active workflow and answers with the last node', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(who.token)
      .json({
        workspaceId: who.workspaceId,
        workflow: doublingWorkflow({ method: 'POST', secret: 's3cret', responseMode: 'lastNode' }),
      })
    created.assertStatus(201)
    const id = created.body().workflow.id

    // Not active yet: the webhook refuses.
    ;(await client.post(`/api/v1/workflows/${id}/webhook`).json({ n: 2 })).assertStatus(404)
    ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)).assertStatus(200)
    ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(
      200
    )

    const unauthorised = await client.post(`/api/v1/workflows/${id}/webhook`).json({ n: 2 })
    unauthorised.assertStatus(401)
    const wrongMethod = await client
      .get(`/api/v1/workflows/${id}/webhook`)
      .header('x-webhook-secret', 's3cret')
    wrongMethod.assertStatus(405)

    const answered = await client
      .post(`/api/v1/workflows/${id}/webhook`)
      .header('x-webhook-secret', 's3cret')
      .json({ n: 21 })
    answered.assertStatus(200)
    assert.deepEqual(answered.body(), { doubled: 42 })

    const runs = await client.get(`/api/v1/workflows/${id}/runs`).bearerToken(who.token)
    runs.assertStatus(200)
    assert.equal(runs.body().runs[0].trigger, 'webhook')
    assert.equal(runs.body().runs[0].status, 'success')
    const detail = await client.get(`/api/v1/runs/${runs.body().runs[0].id}`).bearerToken(who.token)
    assert.deepEqual(
      detail.body().run.nodes.map((node: any) => [node.nodeId, node.status]),
      [
        ['trigger', 'success'],
        ['double', 'success'],
      ]
    )
    assert.notInclude(JSON.stringify(detail.body().run.input), 's3cret', 'the secret is not stored')
  })

  test('immediate webhooks answer 202 with the run id; the Run endpoint needs a published workflow', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(who.token)
      .json({
        workspaceId: who.workspaceId,
        workflow: doublingWorkflow({ method: 'POST', responseMode: 'immediately' }),
      })
    const id = created.body().workflow.id
    const early = await client
      .post(`/api/v1/workflows/${id}/run`)
      .bearerToken(who.token)
      .json({ input: { n: 1 } })
    early.assertStatus(400)
    assert.equal(early.body().message, 'Publish the workflow before running it')

    await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)
    await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)
    const accepted = await client.post(`/api/v1/workflows/${id}/webhook`).json({ n: 5 })
    accepted.assertStatus(202)
    const run = await waitForRun(client, who.token, accepted.body().runId)
    assert.deepEqual(run.output, { doubled: 10 })

    const manual = await client
      .post(`/api/v1/workflows/${id}/run`)
      .bearerToken(who.token)
      .json({ input: { n: 4 } })
    manual.assertStatus(202)
    const manualRun = await waitForRun(client, who.token, manual.body().runId)
    assert.equal(manualRun.trigger, 'manual')
    assert.deepEqual(manualRun.output, { doubled: 8 })

    const stranger = await owner()
    ;(
      await client.get(`/api/v1/runs/${manual.body().runId}`).bearerToken(stranger.token)
    ).assertStatus(404)
    ;(await client.get(`/api/v1/workflows/${id}/runs`).bearerToken(stranger.token)).assertStatus(
      404
    )
  })
})

test.group('Execute workflow bot block', () => {
  test('a bot runs a published workflow and maps its output into variables', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(who.token)
      .json({ workspaceId: who.workspaceId, workflow: doublingWorkflow({ method: 'POST' }) })
    const workflowId = created.body().workflow.id
    await client.post(`/api/v1/workflows/${workflowId}/publish`).bearerToken(who.token)

    const bot = {
      version: '6',
      name: 'Calls a workflow',
      groups: [
        {
          id: 'g1',
          title: 'Group #1',
          graphCoordinates: at,
          blocks: [
            {
              id: 'run1',
              type: 'execute-workflow',
              options: {
                workflowId,
                inputs: [{ key: 'n', value: '{{N}}' }],
                variableMappings: [{ bodyPath: 'doubled', variableId: 'v_out' }],
              },
            },
            {
              id: 't1',
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: 'Result {{Out}}' }] }] },
            },
          ],
        },
      ],
      events: [{ id: 'start', type: 'start', graphCoordinates: at, outgoingEdgeId: 'e0' }],
      edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
      variables: [
        { id: 'v_n', name: 'N' },
        { id: 'v_out', name: 'Out' },
      ],
      theme: {},
      settings: {},
    }
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(who.token)
      .json({ workspaceId: who.workspaceId, bot })
    const botId = imported.body().bot.id
    await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(who.token)
    const { default: Bot } = await import('#models/bot')
    const publicId = (await Bot.findOrFail(botId)).publicId
    const chat = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .json({ prefilledVariables: { N: '21' } })
    chat.assertStatus(200)
    assert.deepEqual(chat.body().messages[0].content.richText[0].children[0].text, 'Result 42')

    const runs = await client.get(`/api/v1/workflows/${workflowId}/runs`).bearerToken(who.token)
    assert.equal(runs.body().runs[0].trigger, 'api')
  })
})
