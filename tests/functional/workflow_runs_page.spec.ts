import { test } from '@japa/runner'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { createUser } from '#tests/helpers'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/** /workflows/{id}/runs: the runs page of members, and the reads it makes. */
test.group('Workflow runs page', () => {
  test('members get the page with the node titles; others a not-found page', async ({
    client,
    assert,
  }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger', title: 'Start' },
      { id: 'script', type: 'workflow-script', options: { code: 'return 1' } },
    ])
    const page = await client
      .get(`/workflows/${workflow.id}/runs?run=abc`)
      .loginAs(workflow.user)
      .withInertia()
    page.assertStatus(200)
    page.assertInertiaComponent('workflows/runs')
    assert.deepEqual(page.inertiaProps.workflow, {
      id: workflow.id,
      name: 'Orders',
      workspaceId: workflow.workspaceId,
    })
    assert.deepEqual(page.inertiaProps.nodes, [
      { id: 'trigger', title: 'Start', type: 'manual-trigger' },
      { id: 'script', title: null, type: 'workflow-script' },
    ])
    assert.equal(page.inertiaProps.selectedRunId, 'abc')

    const stranger = await createUser()
    const refused = await client
      .get(`/workflows/${workflow.id}/runs`)
      .loginAs(stranger)
      .withInertia()
    refused.assertStatus(404)
    refused.assertInertiaComponent('errors/not_found')
  })

  test('the run detail the page reads has each node input, output and logs', async ({
    client,
    assert,
  }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'name',
          type: 'workflow-set-variable',
          options: { variableId: 'v-name', value: '{{$input.name}}' },
        },
      ],
      { variables: [{ id: 'v-name', name: 'Name' }] }
    )
    const runId = await createRun(workflow, 'manual', { name: 'Ada' })
    await executeRun(runId)
    const list = await client.get(`/api/v1/workflows/${workflow.id}/runs`).loginAs(workflow.user)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().runs.map((run: { id: string; status: string }) => [run.id, run.status]),
      [[runId, 'success']]
    )
    const detail = await client.get(`/api/v1/runs/${runId}`).loginAs(workflow.user)
    detail.assertStatus(200)
    const node = detail.body().run.nodes.find((n: { nodeId: string }) => n.nodeId === 'name')
    assert.deepEqual(node.input, { name: 'Ada' })
    assert.equal(node.logs[0].description, 'Name = Ada')
    assert.equal(node.status, 'success')

    const stranger = await createUser()
    ;(await client.get(`/api/v1/runs/${runId}`).loginAs(stranger)).assertStatus(404)
    ;(await client.get(`/api/v1/workflows/${workflow.id}/runs`).loginAs(stranger)).assertStatus(404)
  })
})
