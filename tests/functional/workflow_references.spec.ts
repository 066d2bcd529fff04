import { test } from '@japa/runner'
import WorkflowRunNode from '#models/workflow_run_node'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * Expressions through the server's run path (run_workflow.ts, the real plugin runners):
 * {{$trigger...}} from a node far from the trigger, and a Condition whose left side is an
 * expression rather than a picked variable (docs/workflows.md, "Expressions").
 */

async function runWith(input: unknown, status: number) {
  const workflow = await publishedWorkflow(
    [
      { id: 'trigger', type: 'manual-trigger', title: 'When called' },
      {
        id: 'fetch',
        type: 'workflow-script',
        title: 'HTTP request',
        options: { code: `return { status: ${status} }` },
      },
      {
        id: 'cond',
        type: 'Condition',
        conditions: [
          {
            id: 'missing',
            content: {
              comparisons: [
                {
                  variableId: '{{$node["HTTP request"].status}}',
                  comparisonOperator: 'Equal to',
                  value: '404',
                },
              ],
            },
          },
        ],
      },
      {
        id: 'lost',
        type: 'workflow-set-variable',
        options: {
          variableId: 'v-message',
          value: 'Order {{$trigger.order.id}} not found ({{$input.status}})',
        },
      },
      {
        id: 'kept',
        type: 'workflow-set-variable',
        options: { variableId: 'v-message', value: 'Order {{ $trigger.order.id }} found' },
      },
    ],
    {
      variables: [{ id: 'v-message', name: 'Message' }],
      edges: [
        ['trigger', 'fetch'],
        ['fetch', 'cond'],
        ['cond', 'lost', 'missing'],
        ['cond', 'kept'],
      ],
    }
  )
  const runId = await createRun(workflow, 'manual', input)
  const outcome = await executeRun(runId)
  const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
  return { outcome, nodes }
}

test.group('Workflow expressions', () => {
  test('a Condition compares a node output and a later node reads the trigger data', async ({
    assert,
  }) => {
    const missing = await runWith({ order: { id: 'A-17' } }, 404)
    assert.equal(missing.outcome?.status, 'success')
    assert.deepEqual(
      missing.nodes.map((node) => [node.nodeId, node.status]),
      [
        ['trigger', 'success'],
        ['fetch', 'success'],
        ['cond', 'success'],
        ['lost', 'success'],
      ]
    )
    assert.equal(missing.nodes[3].logs?.[0].description, 'Message = Order A-17 not found (404)')

    const found = await runWith({ order: { id: 'B-2' } }, 200)
    assert.equal(found.outcome?.status, 'success')
    assert.deepEqual(
      found.nodes.map((node) => node.nodeId),
      ['trigger', 'fetch', 'cond', 'kept']
    )
    assert.equal(found.nodes[3].logs?.[0].description, 'Message = Order B-2 found')
  })
})
