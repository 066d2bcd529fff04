import { test } from '@japa/runner'
import {
  MAX_NODE_VISITS,
  NotWaitingError,
  RUN_ERRORS,
  WorkflowExecutor,
} from '#engine/workflow/executor'
import { parseState } from '#engine/workflow/state'
import { parseReference } from '#engine/workflow/references'
import { run as conditionRunner } from '../../../plugins/condition/runner.js'
import { run as setVariableRunner } from '../../../plugins/set-variable/runner.js'
import { run as waitRunner } from '../../../plugins/wait/runner.js'
import { run as respondRunner } from '../../../plugins/respond-to-webhook/runner.js'
import { run as manualRunner } from '../../../plugins/manual-trigger/runner.js'
import { finalEvent, memoryPorts, trail, workflowOf, type TestRunner } from './memory_ports.js'

/**
 * The executor with in-memory ports: real runners for the flow plugins (condition, set
 * variable, wait, respond), small test runners for the rest.
 */

const emit: TestRunner = ({ options }) => ({ output: options.output ?? options })
const echo: TestRunner = ({ workflow }) => ({ output: workflow?.input })
const fail: TestRunner = ({ options }) => {
  throw new Error(String(options.message ?? 'Boom'))
}

const RUNNERS: Record<string, TestRunner> = {
  'manual-trigger': manualRunner,
  'workflow-condition': conditionRunner,
  'workflow-set-variable': setVariableRunner,
  'workflow-wait': waitRunner,
  'respond-to-webhook': respondRunner,
  emit,
  echo,
  fail,
}

function executorFor(workflow: ReturnType<typeof workflowOf>, runners = RUNNERS) {
  const ports = memoryPorts(runners)
  return { ports, executor: new WorkflowExecutor(workflow, ports) }
}

/** A state as it comes back from the database. */
function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value))
}

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

test.group('Workflow executor: time', () => {
  test('a wait parks the run with a serialisable state, and resume goes on', async ({ assert }) => {
    const workflow = workflowOf(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'wait',
          type: 'workflow-wait',
          options: { resume: 'specificTime', dateTime: '2030-01-01T01:00:00Z' },
        },
        { id: 'after', type: 'echo' },
      ],
      [
        ['trigger', 'wait'],
        ['wait', 'after'],
      ]
    )
    const first = executorFor(workflow)
    const parked = await first.executor.start({ runId: 'r9', trigger: 'manual', input: { n: 1 } })
    assert.equal(parked.status, 'waiting')
    assert.equal(parked.resumeAt, '2030-01-01T01:00:00.000Z')
    assert.isUndefined(parked.waitingForWebhook)
    assert.deepEqual(trail(parked.events).slice(-2), ['wait:running', 'wait:waiting'])

    // A new executor (another process, after a restart) with the stored state.
    const second = executorFor(workflow)
    await assert.rejects(
      () => second.executor.resume(parseState(stored(parked.state))),
      NotWaitingError
    )
    second.ports.clock.now = Date.parse('2030-01-01T01:00:00Z')
    const resumed = await second.executor.resume(parseState(JSON.stringify(parked.state)))
    assert.equal(resumed.status, 'success')
    assert.deepEqual(trail(resumed.events), ['wait:success', 'after:running', 'after:success'])
    const wait = finalEvent(resumed.events, 'wait')!
    assert.equal(wait.executionId, finalEvent(parked.events, 'wait')!.executionId)
    assert.equal(wait.durationMs, 3_600_000)
    assert.deepEqual(resumed.output, { n: 1 })

    // The state after the resume is checkpointed before the next node starts: a crash during
    // that node goes on from there, without the wait to finish (and record) again.
    const events = second.ports.events
    const waitDone = events.findIndex((e) => e.type === 'node' && e.nodeId === 'wait')
    const afterStarts = events.findIndex((e) => e.type === 'node' && e.nodeId === 'after')
    const between = events.slice(waitDone, afterStarts).filter((e) => e.type === 'checkpoint')
    assert.lengthOf(between, 1)
    const checkpoint = between[0] as Extract<(typeof events)[number], { type: 'checkpoint' }>
    assert.deepEqual(checkpoint.state.parked, [])
    assert.deepEqual(
      checkpoint.state.queue.map((activation) => activation.nodeId),
      ['after']
    )
  })

  test('a webhook wait parks one branch while the others go on', async ({ assert }) => {
    const workflow = workflowOf(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'hook', type: 'workflow-wait', options: { resume: 'webhook' } },
        { id: 'side', options: { output: 'side done' } },
        { id: 'join', type: 'echo' },
      ],
      [
        ['trigger', 'hook'],
        ['trigger', 'side'],
        ['hook', 'join'],
        ['side', 'join'],
      ]
    )
    const { executor } = executorFor(workflow)
    const parked = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(parked.status, 'waiting')
    assert.deepEqual(parked.waitingForWebhook, { nodeId: 'hook' })
    assert.isUndefined(parked.resumeAt)
    assert.include(trail(parked.events), 'side:success')
    assert.notInclude(trail(parked.events), 'join:running')

    await assert.rejects(() => executor.resume(stored(parked.state), {}, { nodeId: 'side' }))
    const resumed = await executor.resume(
      stored(parked.state),
      { body: { approved: true } },
      {
        nodeId: 'hook',
      }
    )
    assert.equal(resumed.status, 'success')
    assert.deepEqual(resumed.output, { hook: { body: { approved: true } }, side: 'side done' })
  })

  test('a wait whose time has passed does not park', async ({ assert }) => {
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          {
            id: 'wait',
            type: 'workflow-wait',
            options: { resume: 'specificTime', dateTime: '2020-01-01T00:00:00Z' },
          },
        ],
        [['trigger', 'wait']]
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual', input: 'x' })
    assert.equal(result.status, 'success')
    assert.equal(result.output, 'x')
  })

  test('the timeout signal stops the run between nodes with "Run timed out"', async ({
    assert,
  }) => {
    const timeout = new AbortController()
    const slow: TestRunner = () => {
      timeout.abort(new DOMException('The operation timed out', 'TimeoutError'))
      return { output: 'finished anyway' }
    }
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'slow', type: 'slow' },
          { id: 'never', type: 'echo' },
        ],
        [
          ['trigger', 'slow'],
          ['slow', 'never'],
        ]
      ),
      { ...RUNNERS, slow }
    )
    const result = await executor.start(
      { runId: 'r', trigger: 'manual' },
      { signal: timeout.signal }
    )
    assert.equal(result.status, 'error')
    assert.equal(result.error, 'Run timed out')
    assert.equal(finalEvent(result.events, 'slow')?.status, 'success')
    assert.notInclude(trail(result.events), 'never:running')
  })

  test('a node cut off by the timeout is recorded as an error', async ({ assert }) => {
    const timeout = new AbortController()
    const hangs: TestRunner = async ({ signal }) => {
      timeout.abort(new DOMException('The operation timed out', 'TimeoutError'))
      if (signal.aborted) throw new Error('The operation was aborted')
    }
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'hangs', type: 'hangs' },
        ],
        [['trigger', 'hangs']],
        { settings: { errorHandling: { retryCount: 3, retryDelay: 100 } } }
      ),
      { ...RUNNERS, hangs }
    )
    const result = await executor.start(
      { runId: 'r', trigger: 'manual' },
      { signal: timeout.signal }
    )
    assert.equal(result.error, 'Run timed out')
    const node = finalEvent(result.events, 'hangs')!
    assert.equal(node.status, 'error')
    assert.equal(node.logs?.at(-1)?.description, 'Run timed out')
    // No retries once the time is up.
    assert.deepEqual(ports.sleeps, [])
  })

  test('an interruption keeps the state, and proceed goes on from it', async ({ assert }) => {
    const interrupt = new AbortController()
    let calls = 0
    const second: TestRunner = () => {
      calls++
      if (calls === 1) {
        interrupt.abort()
        throw new Error('worker shutting down')
      }
      return { output: 'second ran' }
    }
    const workflow = workflowOf(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'second', type: 'second' },
        { id: 'third', type: 'echo' },
      ],
      [
        ['trigger', 'second'],
        ['second', 'third'],
      ]
    )
    const { executor } = executorFor(workflow, { ...RUNNERS, second })
    const stopped = await executor.start(
      { runId: 'r', trigger: 'manual' },
      { interrupt: interrupt.signal }
    )
    assert.equal(stopped.status, 'interrupted')
    assert.deepEqual(
      stopped.state.queue.map((activation) => activation.nodeId),
      ['second']
    )
    const again = await executor.proceed(stored(stopped.state))
    assert.equal(again.status, 'success')
    assert.equal(again.output, 'second ran')
    assert.equal(again.state.visits, 3)
  })
})

test.group('Workflow executor: data', () => {
  test('{{Variable}}, {{$input...}} and {{$node...}} references reach the options', async ({
    assert,
  }) => {
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          {
            id: 'fetch',
            title: 'Fetch user',
            options: {
              output: { body: { city: 'Lyon', tags: ['a', 'b'], user: { name: 'Ada' } } },
            },
          },
          {
            id: 'name',
            type: 'workflow-set-variable',
            options: { variableId: 'Name', value: '{{ $input.body.user.name }}' },
          },
          {
            id: 'greet',
            options: {
              output: {
                text: 'Hello {{Name}} from {{$node["Fetch user"].body.city}}',
                tags: '{{$node.fetch.body.tags}}',
                first: '{{$node.Fetch user.body.tags[0]}}',
                trigger: '{{$node.trigger.id}}',
                missing: '[{{$node.nope.x}}{{$input.nothing}}]',
              },
            },
          },
        ],
        [
          ['trigger', 'fetch'],
          ['fetch', 'name'],
          ['name', 'greet'],
        ],
        { variables: [{ id: 'v-name', name: 'Name' }] }
      )
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual', input: { id: 42 } })
    assert.equal(result.status, 'success')
    assert.deepEqual(result.output, {
      text: 'Hello Ada from Lyon',
      tags: '["a","b"]',
      first: 'a',
      trigger: '42',
      missing: '[]',
    })
    assert.deepEqual(result.state.variables, [{ id: 'v-name', name: 'Name', value: 'Ada' }])
    // Set variable passes its input on.
    assert.deepEqual(ports.calls.at(-1)?.input, {
      body: { city: 'Lyon', tags: ['a', 'b'], user: { name: 'Ada' } },
    })
  })

  test('{{$trigger...}} reads the trigger data from any node, whatever came between', async ({
    assert,
  }) => {
    const { executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger', title: 'When clicked' },
          { id: 'fetch', options: { output: { status: 200 } } },
          {
            id: 'greet',
            options: {
              output: {
                text: 'Hi {{$trigger.body.name}} ({{ $trigger.body.tags[1] }})',
                whole: '{{$trigger}}',
                status: '{{$input.status}}',
                missing: '[{{$trigger.nope}}]',
              },
            },
          },
        ],
        [
          ['trigger', 'fetch'],
          ['fetch', 'greet'],
        ]
      )
    )
    const input = { body: { name: 'Ada', tags: ['a', 'b'] } }
    const result = await executor.start({ runId: 'r', trigger: 'manual', input })
    assert.equal(result.status, 'success')
    assert.deepEqual(result.output, {
      text: 'Hi Ada (b)',
      whole: JSON.stringify(input),
      status: '200',
      missing: '[]',
    })
  })

  test('a condition compares any expression on its left side; variables picked by id still work', async ({
    assert,
  }) => {
    const comparison = (variableId: string, comparisonOperator: string, value = '') => ({
      variableId,
      comparisonOperator,
      value,
    })
    const workflow = workflowOf(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'http', type: 'status', title: 'HTTP request' },
        {
          id: 'kind',
          type: 'workflow-set-variable',
          options: { variableId: 'v-kind', value: '{{$trigger.kind}}' },
        },
        {
          id: 'cond',
          type: 'workflow-condition',
          conditions: [
            {
              id: 'missing',
              content: {
                comparisons: [
                  comparison('{{$node["HTTP request"].status}}', 'Equal to', '404'),
                  comparison('{{ $node.http.tags }}', 'Contains', 'x'),
                ],
              },
            },
            {
              id: 'mixed',
              content: {
                comparisons: [comparison('{{Kind}}-{{$trigger.n}}', 'Equal to', 'order-7')],
              },
            },
            { id: 'old', content: { comparisons: [comparison('v-kind', 'Equal to', 'refund')] } },
          ],
        },
        { id: 'is404', options: { output: '404' } },
        { id: 'isMixed', options: { output: 'mixed' } },
        { id: 'isOld', options: { output: 'old' } },
        { id: 'other', options: { output: 'other' } },
      ],
      [
        ['trigger', 'http'],
        ['http', 'kind'],
        ['kind', 'cond'],
        ['cond', 'is404', 'missing'],
        ['cond', 'isMixed', 'mixed'],
        ['cond', 'isOld', 'old'],
        ['cond', 'other'],
      ],
      { variables: [{ id: 'v-kind', name: 'Kind' }] }
    )
    const runners = (status: number): Record<string, TestRunner> => ({
      ...RUNNERS,
      status: () => ({ output: { status, tags: ['x'] } }),
    })
    const cases: [number, unknown, string][] = [
      [404, { kind: 'order', n: 7 }, '404'],
      [200, { kind: 'order', n: 7 }, 'mixed'],
      [200, { kind: 'refund', n: 7 }, 'old'],
      [200, { kind: 'order', n: 8 }, 'other'],
    ]
    for (const [status, input, expected] of cases) {
      const { executor } = executorFor(workflow, runners(status))
      const result = await executor.start({ runId: 'r', trigger: 'manual', input })
      assert.equal(result.status, 'success')
      assert.equal(result.output, expected, JSON.stringify({ status, input }))
    }
  })

  test('reference syntax', ({ assert }) => {
    assert.deepEqual(parseReference('$input'), { kind: 'input', path: '' })
    assert.deepEqual(parseReference('$input.a.b'), { kind: 'input', path: 'a.b' })
    assert.deepEqual(parseReference('$input[0].a'), { kind: 'input', path: '[0].a' })
    assert.deepEqual(parseReference('$trigger'), { kind: 'trigger', path: '' })
    assert.deepEqual(parseReference('$trigger.body.a'), { kind: 'trigger', path: 'body.a' })
    assert.isUndefined(parseReference('$triggers'))
    assert.deepEqual(parseReference('$node.n1.body'), { kind: 'node', node: 'n1', path: 'body' })
    assert.deepEqual(parseReference(`$node['A. B'].x`), { kind: 'node', node: 'A. B', path: 'x' })
    assert.isUndefined(parseReference('$inputs'))
    assert.isUndefined(parseReference('$node'))
    assert.isUndefined(parseReference('Name'))
  })

  test('the first respond-to-webhook answer is reported and the run goes on', async ({
    assert,
  }) => {
    const { ports, executor } = executorFor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          {
            id: 'respond',
            type: 'respond-to-webhook',
            options: { statusCode: 201, body: '{"id": "{{$input.body.id}}"}' },
          },
          { id: 'later', type: 'echo' },
        ],
        [
          ['trigger', 'respond'],
          ['respond', 'later'],
        ]
      )
    )
    const result = await executor.start({
      runId: 'r',
      trigger: 'webhook',
      input: { method: 'POST', body: { id: 'abc' } },
    })
    assert.equal(result.status, 'success')
    assert.deepEqual(result.response, { statusCode: 201, body: { id: 'abc' } })
    const responses = ports.events.filter((event) => event.type === 'response')
    assert.lengthOf(responses, 1)
    assert.include(trail(result.events), 'later:success')
  })
})
