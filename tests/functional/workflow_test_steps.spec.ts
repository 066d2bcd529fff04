import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { closeQueue, startWorkers } from '#queue/queue'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * What the node panel reads (docs/workflows.md "Test runs"): each node's input, output,
 * timing and error with its cause; "test this step"; pinned trigger data.
 */

const at = (x: number) => ({ x, y: 0 })

async function owner() {
  const user = await createUser({ name: 'Ada Builder' })
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `t-${Date.now()}-${Math.random()}`)).value
  return { user, token, workspaceId: workspace.id }
}

/** manual trigger -> make (code) -> use (code) -> after (code), chained. */
function chain(make: string, use: string, trigger: Record<string, unknown> = {}) {
  const node = (id: string, x: number, code: string, title?: string) => ({
    id,
    type: 'Code',
    title,
    graphCoordinates: at(x),
    options: { content: code },
  })
  return {
    name: 'Steps',
    blocks: [
      { id: 'start', type: 'manual-trigger', graphCoordinates: at(0), options: {}, ...trigger },
      node('make', 300, make, 'Make greeting'),
      node('use', 600, use, 'Use greeting'),
      node('after', 900, 'return { after: true }'),
    ],
    edges: [
      { id: 'e1', from: { blockId: 'start' }, to: { blockId: 'make' } },
      { id: 'e2', from: { blockId: 'make' }, to: { blockId: 'use' } },
      { id: 'e3', from: { blockId: 'use' }, to: { blockId: 'after' } },
    ],
    variables: [],
    settings: {},
  }
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

async function finished(client: ApiClient, token: string, runId: string) {
  for (let i = 0; i < 200; i++) {
    const response = await client.get(`/api/v1/runs/${runId}`).bearerToken(token)
    response.assertStatus(200)
    const run = response.body().run
    if (['success', 'error', 'cancelled'].includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the run did not finish')
}

async function testRun(client: ApiClient, token: string, id: string, body: object) {
  const started = await client
    .post(`/api/v1/workflows/${id}/test-run`)
    .bearerToken(token)
    .json(body)
  started.assertStatus(202)
  return finished(client, token, started.body().runId)
}

test.group('Workflow test runs: the node panel data', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test("a run's detail gives each node's input, output, timing, and a failure's error", async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const workflow = await createWorkflow(
      client,
      who,
      chain(
        "return { greeting: 'hi ' + input.name }",
        "throw new Error('no stock for ' + input.greeting)"
      )
    )
    const run = await testRun(client, who.token, workflow.id, { input: { name: 'Ada' } })
    assert.equal(run.status, 'error')
    assert.isTrue(run.isTest)
    const byId = new Map<string, any>(run.nodes.map((node: any) => [node.nodeId, node]))
    assert.deepEqual(byId.get('make').input, { name: 'Ada' })
    assert.deepEqual(byId.get('make').output, { greeting: 'hi Ada' })
    assert.isNull(byId.get('make').error)
    assert.isNumber(byId.get('make').durationMs)
    assert.isString(byId.get('make').startedAt)
    const failed = byId.get('use')
    assert.equal(failed.status, 'error')
    assert.deepEqual(failed.input, { greeting: 'hi Ada' })
    assert.include(failed.error, 'no stock for hi Ada')
    assert.isFalse(byId.has('after'))

    // Listed on the runs page's list, marked as a test.
    const listed = await client
      .get(`/api/v1/workflows/${workflow.id}/runs?tests=true`)
      .bearerToken(who.token)
    assert.deepEqual(
      listed.body().runs.map((r: any) => [r.id, r.isTest]),
      [[run.id, true]]
    )

    // Someone outside the workspace reads nothing of it.
    const stranger = await owner()
    const hidden = await client.get(`/api/v1/runs/${run.id}`).bearerToken(stranger.token)
    hidden.assertStatus(404)
  })

  test('test this step runs the node and its upstream only', async ({ client, assert }) => {
    const who = await owner()
    const workflow = await createWorkflow(
      client,
      who,
      chain("return { greeting: 'hello' }", "return { said: input.greeting + '!' }")
    )
    const run = await testRun(client, who.token, workflow.id, { input: {}, nodeId: 'make' })
    assert.equal(run.status, 'success')
    assert.sameMembers(
      run.nodes.map((node: any) => node.nodeId),
      ['start', 'make']
    )
    assert.deepEqual(run.output, { greeting: 'hello' })

    const whole = await testRun(client, who.token, workflow.id, { input: {}, nodeId: 'use' })
    assert.sameMembers(
      whole.nodes.map((node: any) => node.nodeId),
      ['start', 'make', 'use']
    )
    assert.deepEqual(whole.output, { said: 'hello!' })

    // A node the trigger does not lead to (or no node at all) is refused with the reason.
    const lone = await client
      .patch(`/api/v1/workflows/${workflow.id}`)
      .bearerToken(who.token)
      .json({
        blocks: [
          ...workflow.blocks,
          { id: 'lone', type: 'Code', graphCoordinates: at(0), options: {} },
        ],
      })
    lone.assertStatus(200)
    for (const nodeId of ['lone', 'nowhere']) {
      const refused = await client
        .post(`/api/v1/workflows/${workflow.id}/test-run`)
        .bearerToken(who.token)
        .json({ nodeId })
      refused.assertStatus(422)
      assert.equal(refused.body().message, 'This node is not reached from the trigger')
    }
  })

  test('pinned trigger data feeds test runs, never the published version', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const workflow = await createWorkflow(
      client,
      who,
      chain("return { greeting: 'hi ' + input.name }", 'return input', {
        pinnedData: { name: 'Pinned Ada' },
      })
    )
    // Kept with the draft, as the editor saved it.
    const read = await client.get(`/api/v1/workflows/${workflow.id}`).bearerToken(who.token)
    assert.deepEqual(read.body().workflow.blocks[0].pinnedData, { name: 'Pinned Ada' })

    const run = await testRun(client, who.token, workflow.id, { input: { name: 'Typed' } })
    const byId = new Map<string, any>(run.nodes.map((node: any) => [node.nodeId, node]))
    assert.equal(byId.get('start').status, 'success')
    assert.deepEqual(byId.get('start').output, { name: 'Pinned Ada' })
    assert.deepEqual(byId.get('make').output, { greeting: 'hi Pinned Ada' })

    // A payload typed for this run wins when the caller says so.
    const typed = await testRun(client, who.token, workflow.id, {
      input: { name: 'Typed' },
      usePinned: false,
    })
    const make = typed.nodes.find((node: any) => node.nodeId === 'make')
    assert.deepEqual(make.output, { greeting: 'hi Typed' })

    // The published version runs the real trigger.
    ;(
      await client.post(`/api/v1/workflows/${workflow.id}/publish`).bearerToken(who.token)
    ).assertStatus(200)
    const published = await client.get(`/api/v1/workflows/${workflow.id}`).bearerToken(who.token)
    const executable = published.body().workflow.executableWorkflow
    assert.notProperty(executable.blocks[0], 'pinnedData')
    const live = await client
      .post(`/api/v1/workflows/${workflow.id}/run`)
      .bearerToken(who.token)
      .json({ input: { name: 'Live' } })
    live.assertStatus(202)
    const liveRun = await finished(client, who.token, live.body().runId)
    const liveMake = liveRun.nodes.find((node: any) => node.nodeId === 'make')
    assert.deepEqual(liveMake.output, { greeting: 'hi Live' })
  })
})
