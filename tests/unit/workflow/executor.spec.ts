import { test } from '@japa/runner'
import { MAX_NODE_VISITS, RUN_ERRORS, WorkflowExecutor } from '#engine/workflow/executor'
import { finalEvent, memoryPorts, trail, workflowOf, type TestRunner } from './memory_ports.js'
import { RUNNERS, executorFor } from '#tests/unit/workflow/executor_fixtures'

/**
 * The executor with in-memory ports: real runners for the flow plugins (condition, set
 * variable, wait, respond), small test runners for the rest.
 */

test.group('Workflow executor: walking the graph', () => {
  test('a linear workflow runs each node with its predecessor output', async ({ assert }) => {
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'a', options: { output: { count: 1 } } },
          { id: 'b', type: 'echo' },
        ],
        [
          ['trigger', 'a'],
          ['a', 'b'],
        ]
      )
    )
    const result = await executor.start({ runId: 'r1', trigger: 'manual', input: { hello: 'x' } })
    assert.equal(result.status, 'success')
    assert.deepEqual(result.output, { count: 1 })
    assert.deepEqual(trail(result.events), [
      'trigger:running',
      'trigger:success',
      'a:running',
      'a:success',
      'b:running',
      'b:success',
    ])
    assert.deepEqual(finalEvent(result.events, 'trigger')?.output, { hello: 'x' })
    assert.deepEqual(finalEvent(result.events, 'b')?.input, { count: 1 })
    assert.equal(result.state.visits, 3)
    // A checkpoint after each node, for the store to go on from.
    assert.lengthOf(
      ports.events.filter((event) => event.type === 'checkpoint'),
      3
    )
  })

  test('condition branches use the bot engine operators; no match takes the default edge', async ({
    assert,
  }) => {
    const workflow = workflowOf(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'status',
          type: 'workflow-set-variable',
          options: { variableId: 'v-status', value: '{{$input.status}}' },
        },
        {
          id: 'cond',
          type: 'workflow-condition',
          conditions: [
            {
              id: 'big',
              content: {
                comparisons: [
                  {
                    variableId: '{{$node.trigger.amount}}',
                    comparisonOperator: 'Greater than',
                    value: '100',
                  },
                ],
              },
            },
            {
              id: 'paid',
              content: {
                logicalOperator: 'AND',
                comparisons: [
                  { variableId: 'v-status', comparisonOperator: 'Equal to', value: 'PAID' },
                  { variableId: 'v-status', comparisonOperator: 'Matches regex', value: '/^pa/i' },
                ],
              },
            },
          ],
        },
        { id: 'large', options: { output: 'large' } },
        { id: 'thanks', options: { output: 'thanks' } },
        { id: 'other', options: { output: 'other' } },
      ],
      [
        ['trigger', 'status'],
        ['status', 'cond'],
        ['cond', 'large', 'big'],
        ['cond', 'thanks', 'paid'],
        ['cond', 'other'],
      ],
      { variables: [{ id: 'v-status', name: 'Status' }] }
    )
    const cases: [unknown, string][] = [
      [{ status: 'paid', amount: 42 }, 'thanks'],
      [{ status: 'paid', amount: 420 }, 'large'],
      [{ status: 'open', amount: 42 }, 'other'],
    ]
    for (const [input, expected] of cases) {
      const { executor } = executorFor(workflow)
      const result = await executor.start({ runId: 'r', trigger: 'manual', input })
      assert.equal(result.status, 'success')
      assert.equal(result.output, expected, JSON.stringify(input))
      const ran = trail(result.events).filter((step) => step.endsWith(':success'))
      for (const node of ['large', 'thanks', 'other'].filter((id) => id !== expected)) {
        assert.notInclude(ran, `${node}:success`)
      }
      // The condition passes its input on.
      assert.deepEqual(
        finalEvent(result.events, 'cond')?.output,
        finalEvent(result.events, 'cond')?.input
      )
    }
  })

  test('a join runs once, after every branch that can still reach it', async ({ assert }) => {
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'a', options: { output: 'from a' } },
          { id: 'b', options: { output: 'from b' } },
          { id: 'b2', type: 'echo' },
          { id: 'join', type: 'echo' },
          { id: 'after', type: 'echo' },
        ],
        [
          ['trigger', 'a'],
          ['trigger', 'b'],
          ['a', 'join'],
          ['b', 'b2'],
          ['b2', 'join'],
          ['join', 'after'],
        ]
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual', input: {} })
    assert.equal(result.status, 'success')
    const successes = trail(result.events).filter((step) => step.endsWith(':success'))
    assert.deepEqual(successes, [
      'trigger:success',
      'a:success',
      'b:success',
      'b2:success',
      'join:success',
      'after:success',
    ])
    assert.deepEqual(finalEvent(result.events, 'join')?.input, { a: 'from a', b2: 'from b' })
    assert.deepEqual(result.output, { a: 'from a', b2: 'from b' })
  })

  test('a join after a condition waits only for the branch taken', async ({ assert }) => {
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          {
            id: 'cond',
            type: 'workflow-condition',
            conditions: [
              {
                id: 'yes',
                content: {
                  comparisons: [
                    { variableId: '{{$input.ok}}', comparisonOperator: 'Equal to', value: 'true' },
                  ],
                },
              },
            ],
          },
          { id: 'yes', options: { output: 'yes' } },
          { id: 'no', options: { output: 'no' } },
          { id: 'join', type: 'echo' },
        ],
        [
          ['trigger', 'cond'],
          ['cond', 'yes', 'yes'],
          ['cond', 'no'],
          ['yes', 'join'],
          ['no', 'join'],
        ]
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual', input: { ok: true } })
    assert.equal(result.status, 'success')
    // One predecessor arrived: its output as it is, not keyed.
    assert.equal(result.output, 'yes')
    assert.notInclude(trail(result.events), 'no:running')
  })

  test('disabled nodes are skipped and pass their input on; attachments are not steps', async ({
    assert,
  }) => {
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'off', type: 'fail', isDisabled: true },
          { id: 'next', type: 'echo' },
          { id: 'tool', type: 'fail' },
        ],
        [
          ['trigger', 'off'],
          ['off', 'next'],
          ['next', 'tool', undefined, true],
        ]
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual', input: { id: 7 } })
    assert.equal(result.status, 'success')
    assert.deepEqual(trail(result.events), [
      'trigger:running',
      'trigger:success',
      'off:skipped',
      'next:running',
      'next:success',
    ])
    assert.deepEqual(finalEvent(result.events, 'off')?.output, { id: 7 })
    assert.deepEqual(result.output, { id: 7 })
    assert.notInclude(
      ports.calls.map((call) => call.nodeId),
      'tool'
    )
  })

  test('a workflow without its trigger node fails clearly', async ({ assert }) => {
    const { executor } = executorFor(workflowOf([{ id: 'a' }], [], { root: 'missing' }))
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'error')
    assert.equal(result.error, RUN_ERRORS.noTrigger)
  })
})

test.group('Workflow executor: errors', () => {
  function flaky(failures: number): TestRunner {
    let calls = 0
    return ({ workflow }) => {
      calls++
      if (calls <= failures) throw new Error(`Attempt ${workflow?.attempt} failed`)
      return { output: { calls } }
    }
  }

  test('a failing node is retried with the delay, then succeeds', async ({ assert }) => {
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'flaky', type: 'flaky' },
        ],
        [['trigger', 'flaky']],
        { settings: { errorHandling: { retryCount: 2, retryDelay: 1500 } } }
      ),
      { ...RUNNERS, flaky: flaky(2) }
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'success')
    assert.deepEqual(ports.sleeps, [1500, 1500])
    const node = finalEvent(result.events, 'flaky')!
    assert.equal(node.status, 'success')
    assert.equal(node.attempts, 3)
    assert.deepEqual(node.output, { calls: 3 })
    assert.deepEqual(
      node.logs?.map((log) => log.description),
      ['Attempt 1 failed', 'Retry 1 of 2', 'Attempt 2 failed', 'Retry 2 of 2']
    )
  })

  test('after its retries a failure stops the run with status error', async ({ assert }) => {
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'bad', type: 'fail', title: 'Call CRM', options: { message: 'CRM is down' } },
          { id: 'never', type: 'echo' },
        ],
        [
          ['trigger', 'bad'],
          ['bad', 'never'],
        ],
        { settings: { errorHandling: { retryCount: 1, retryDelay: 10 } } }
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'error')
    assert.equal(result.error, 'Call CRM: CRM is down')
    assert.deepEqual(ports.sleeps, [10])
    assert.equal(finalEvent(result.events, 'bad')?.status, 'error')
    assert.equal(finalEvent(result.events, 'bad')?.attempts, 2)
    assert.notInclude(trail(result.events), 'never:running')
  })

  test('with continueOnFail the run goes on with the error as the output', async ({ assert }) => {
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'bad', type: 'fail', options: { message: 'Nope' } },
          { id: 'next', type: 'echo' },
        ],
        [
          ['trigger', 'bad'],
          ['bad', 'next'],
        ],
        { settings: { errorHandling: { retryCount: 0, continueOnFail: true } } }
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'success')
    assert.equal(finalEvent(result.events, 'bad')?.status, 'error')
    assert.deepEqual(result.output, { error: 'Nope' })
  })

  test('an error log entry fails a node too; unknown node types fail', async ({ assert }) => {
    const logsError: TestRunner = ({ logger }) => {
      logger.error('Quota exceeded')
      return { output: 'partial' }
    }
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'quota', type: 'quota' },
        ],
        [['trigger', 'quota']]
      ),
      { ...RUNNERS, quota: logsError }
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.error, 'quota: Quota exceeded')

    const unknown = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'x', type: 'nope' },
        ],
        [['trigger', 'x']]
      )
    )
    const second = await unknown.executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(second.status, 'error')
    assert.match(second.error!, /Unknown node type nope/)
  })

  test('loops run until their exit, and the visit bound stops endless ones', async ({ assert }) => {
    const increment: TestRunner = ({ variables }) => {
      variables.set('v-count', Number(variables.get('v-count') ?? 0) + 1)
    }
    const loop = (limit: string) =>
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'inc', type: 'increment' },
          {
            id: 'again',
            type: 'workflow-condition',
            conditions: [
              {
                id: 'more',
                content: {
                  comparisons: [
                    { variableId: 'v-count', comparisonOperator: 'Less than', value: limit },
                  ],
                },
              },
            ],
          },
          { id: 'done', type: 'emit', options: { output: 'count {{Count}}' } },
        ],
        [
          ['trigger', 'inc'],
          ['inc', 'again'],
          ['again', 'inc', 'more'],
          ['again', 'done'],
        ],
        { variables: [{ id: 'v-count', name: 'Count', value: '0' }] }
      )

    const bounded = executorFor(loop('3'), { ...RUNNERS, increment })
    const result = await bounded.executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'success')
    assert.equal(result.output, 'count 3')
    assert.equal(result.state.visits, 1 + 3 * 2 + 1)

    const endless = new WorkflowExecutor(loop('1000000'), memoryPorts({ ...RUNNERS, increment }), {
      maxNodeVisits: 50,
    })
    const stopped = await endless.start({ runId: 'r', trigger: 'manual' })
    assert.equal(stopped.status, 'error')
    assert.equal(stopped.error, RUN_ERRORS.loops(50))
    assert.equal(stopped.state.visits, 50)
    assert.isAbove(MAX_NODE_VISITS, 50)
  })
})
