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

test.group('Workflow expressions in scripts', () => {
  test('a script reads the code forms a dropped key inserts: input, $node["Title"] and $trigger', async ({
    assert,
  }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger', title: 'When called' },
        {
          id: 'fetch',
          type: 'Code',
          title: 'Fetch order',
          options: { content: 'return { total: 40, items: [{ name: "pen" }] }' },
        },
        {
          id: 'double',
          type: 'Code',
          options: { content: 'return input.total * 2' },
        },
        {
          id: 'sum',
          type: 'Code',
          options: {
            content:
              'return [input, $node["Fetch order"].items[0].name, $trigger.order.id].join(" ")',
          },
        },
      ],
      {
        edges: [
          ['trigger', 'fetch'],
          ['fetch', 'double'],
          ['double', 'sum'],
        ],
      }
    )
    const runId = await createRun(workflow, 'manual', { order: { id: 'A-17' } })
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'success')
    const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.status, node.output]),
      [
        ['trigger', 'success', { order: { id: 'A-17' } }],
        ['fetch', 'success', { total: 40, items: [{ name: 'pen' }] }],
        ['double', 'success', 80],
        ['sum', 'success', '80 pen A-17'],
      ]
    )
  })
})
