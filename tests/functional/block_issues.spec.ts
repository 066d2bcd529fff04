import { test } from '@japa/runner'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type User from '#models/user'

/**
 * Field validation on save and before run (app/plugins/block_issues.ts): a draft with a
 * block whose fields its plugin refuses is saved and its issues returned; publishing and
 * test runs are refused with a message naming the block and the field.
 */

async function owner() {
  const user: User = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `issues-${Date.now()}-${Math.random()}`))
    .value
  return { workspace, token }
}

function botWith(aiOptions: Record<string, unknown>) {
  return {
    version: '6',
    name: 'Assistant',
    groups: [
      {
        id: 'g1',
        title: 'Ask the model',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [{ id: 'ai1', type: 'openai', options: aiOptions }],
      },
    ],
    edges: [],
    events: [],
    variables: [],
    theme: {},
    settings: {},
  }
}

const CHAT = { action: 'Create chat completion' }

test.group('Block issues: bots', () => {
  test('a save keeps the draft and returns its issues; publish is refused naming block and field', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await owner()
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: botWith({}) })
    created.assertStatus(201)
    const id = created.body().bot.id

    const saved = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ groups: botWith(CHAT).groups })
    saved.assertStatus(200)
    assert.deepEqual(saved.body().bot.groups[0].blocks[0].options, CHAT)
    assert.deepInclude(saved.body().issues, {
      blockId: 'ai1',
      blockType: 'openai',
      field: 'credentialsId',
      message: 'Account is required',
    })

    const refused = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)
    refused.assertStatus(422)
    assert.equal(refused.body().message, 'Fix the blocks before publishing')
    assert.match(refused.body().description, /"Ask the model": Account is required/)
    assert.equal(refused.body().issues[0].blockId, 'ai1')

    const fixed = await client
      .patch(`/api/v1/bots/${id}`)
      .bearerToken(token)
      .json({ groups: botWith({ ...CHAT, credentialsId: 'openai-account' }).groups })
    fixed.assertStatus(200)
    assert.deepEqual(fixed.body().issues, [])
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
  })
})

function workflowWith(callOptions: Record<string, unknown>) {
  return {
    name: 'Notify',
    blocks: [
      { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
      {
        id: 'call',
        type: 'workflow-http-request',
        title: 'Notify the shop',
        graphCoordinates: { x: 300, y: 0 },
        options: callOptions,
      },
    ],
    edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'call' } }],
    variables: [],
    settings: {},
  }
}

test.group('Block issues: workflows', () => {
  test('a save returns the issues; publish and test runs are refused naming node and field', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await owner()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: workflowWith({ method: 'POST' }) })
    created.assertStatus(201)
    const id = created.body().workflow.id

    const saved = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ blocks: workflowWith({ method: 'POST', url: '  ' }).blocks })
    saved.assertStatus(200)
    assert.deepEqual(saved.body().issues, [
      {
        blockId: 'call',
        blockType: 'workflow-http-request',
        field: 'webhook.url',
        message: 'URL is required',
      },
    ])

    const refused = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)
    refused.assertStatus(422)
    refused.assertBodyContains({
      message: 'Fix the blocks before publishing',
      description: '"Notify the shop": URL is required',
    })

    const run = await client.post(`/api/v1/workflows/${id}/test-run`).bearerToken(token).json({})
    run.assertStatus(422)
    run.assertBodyContains({
      message: 'Fix the blocks before running',
      description: '"Notify the shop": URL is required',
    })

    // A disabled node is skipped by runs, so its fields do not hold anything up.
    const disabled = workflowWith({ method: 'POST' }).blocks
    ;(disabled[1] as any).isDisabled = true
    const off = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ blocks: disabled })
    assert.deepEqual(off.body().issues, [])

    const fixed = await client
      .patch(`/api/v1/workflows/${id}`)
      .bearerToken(token)
      .json({ blocks: workflowWith({ method: 'POST', url: 'https://shop.example/hook' }).blocks })
    assert.deepEqual(fixed.body().issues, [])
    ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(token)).assertStatus(200)
  })
})
