import { test } from '@japa/runner'
import { NotWaitingError } from '#engine/workflow/executor'
import { parseState } from '#engine/workflow/state'
import { parseReference } from '#engine/workflow/references'
import { finalEvent, trail, workflowOf, type TestRunner } from './memory_ports.js'
import { RUNNERS, executorFor, stored } from '#tests/unit/workflow/executor_fixtures'

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
