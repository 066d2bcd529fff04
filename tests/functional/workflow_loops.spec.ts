import { test } from '@japa/runner'
import WorkflowRunNode from '#models/workflow_run_node'
import WorkflowRun from '#models/workflow_run'
import { createRun, executeRun, resumeRun } from '#services/workflows/run_workflow'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * A Loop node in runs stored by the server: every iteration's node runs are records of the
 * run history, and a loop whose repeated part waits for a webhook call keeps its place in
 * the stored state between two calls.
 */

const EXITS = [
  { id: 'each', exit: 'each' },
  { id: 'done', exit: 'done' },
  { id: 'break', exit: 'break' },
]

test.group('Workflow runs: loops', () => {
  test('each iteration is recorded, across webhook waits inside the loop', async ({ assert }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'loop',
          type: 'loop',
          title: 'Each order',
          options: { mode: 'list', listPath: 'orders' },
          conditions: EXITS,
        },
        {
          id: 'shout',
          type: 'workflow-script',
          options: { code: 'return input.item.toUpperCase()' },
        },
        { id: 'approval', type: 'workflow-wait', options: { resume: 'webhook' } },
        { id: 'end', type: 'workflow-script', options: { code: 'return input' } },
      ],
      {
        edges: [
          ['trigger', 'loop'],
          ['loop', 'shout', 'each'],
          ['shout', 'approval'],
          ['approval', 'loop'],
          ['loop', 'end', 'done'],
        ],
      }
    )
    const runId = await createRun(workflow, 'manual', { orders: ['a', 'b'] })
    const first = await executeRun(runId)
    assert.equal(first?.status, 'waiting')
    assert.equal(first?.waitingForWebhookNode, 'approval')

    const second = await resumeRun(runId, { ok: 1 }, { nodeId: 'approval' })
    assert.equal(second?.status, 'waiting', 'the second order waits for its own call')
    const done = await resumeRun(runId, { ok: 2 }, { nodeId: 'approval' })
    assert.equal(done?.status, 'success')
    assert.deepEqual(done?.output, { iterations: 2, broken: false })

    const records = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
    const of = (nodeId: string) =>
      records.filter((record) => record.nodeId === nodeId && record.status === 'success')
    assert.deepEqual(
      of('shout').map((record) => record.output),
      ['A', 'B']
    )
    assert.deepEqual(
      of('approval').map((record) => record.output),
      [{ ok: 1 }, { ok: 2 }]
    )
    assert.deepEqual(
      of('loop').map((record) => record.output),
      [
        { item: 'a', index: 0 },
        { item: 'b', index: 1 },
        { iterations: 2, broken: false },
      ]
    )
    assert.deepEqual(of('loop')[1].input, { ok: 1 }, 'the second visit came back from the wait')
    assert.isNull((await WorkflowRun.findOrFail(runId)).state)
  }).timeout(60_000)
})
