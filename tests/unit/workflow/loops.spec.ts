import { test } from '@japa/runner'
import env from '#start/env'
import { RUN_ERRORS, WorkflowExecutor } from '#engine/workflow/executor'
import type { NodeEvent } from '#engine/workflow/ports'
import { run as loopRunner, LOOP_MESSAGES } from '../../../plugins/loop/runner.js'
import { run as manualRunner } from '../../../plugins/manual-trigger/runner.js'
import { memoryPorts, trail, workflowOf, type BlockSpec, type TestRunner } from './memory_ports.js'

/**
 * The Loop node in the executor, with its real runner: the repeated part leads back to it
 * through an edge, each iteration's nodes are recorded as their own runs, Break and Done
 * leave through their branches, and both bounds stop what would go on forever.
 */

const emit: TestRunner = ({ options }) => ({ output: options.output ?? options })

const RUNNERS: Record<string, TestRunner> = {
  'manual-trigger': manualRunner,
  'loop': loopRunner as TestRunner,
  emit,
}

const EXITS = [
  { id: 'each', exit: 'each' },
  { id: 'done', exit: 'done' },
  { id: 'break', exit: 'break' },
] satisfies BlockSpec['conditions']

/** trigger → list → loop; each → body → loop; done → after; break → broken. */
function loopWorkflow(options: Record<string, unknown>, list: unknown, body: unknown) {
  return workflowOf(
    [
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'list', options: { output: list } },
      { id: 'loop', type: 'loop', options, conditions: EXITS },
      { id: 'body', options: { output: body } },
      { id: 'after', options: { output: 'after {{$input.iterations}}' } },
      { id: 'broken', options: { output: 'broken after {{$input.iterations}}' } },
    ],
    [
      ['trigger', 'list'],
      ['list', 'loop'],
      ['loop', 'body', 'each'],
      ['body', 'loop'],
      ['loop', 'after', 'done'],
      ['loop', 'broken', 'break'],
    ]
  )
}

function outputsOf(events: unknown[], nodeId: string) {
  return (events as NodeEvent[])
    .filter(
      (event) => event.type === 'node' && event.nodeId === nodeId && event.status === 'success'
    )
    .map((event) => event.output)
}

test.group('Workflow executor: Loop node', (suite) => {
  // env.set writes process.env too, where undefined becomes the text "undefined": processes
  // the suite starts later (ace commands) would refuse it.
  suite.each.teardown(() => {
    env.set('LOOP_MAX_ITERATIONS', undefined as any)
    delete process.env.LOOP_MAX_ITERATIONS
  })

  test('for each item of the input: one record of the repeated nodes per item', async ({
    assert,
  }) => {
    const ports = memoryPorts(RUNNERS)
    const executor = new WorkflowExecutor(
      loopWorkflow(
        { mode: 'list', listPath: 'body.items' },
        { body: { items: ['a', 'b', 'c'] } },
        '{{$input.item}}-{{$input.index}} of {{$node.list.body.items[2]}}'
      ),
      ports
    )
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'success')
    assert.deepEqual(outputsOf(ports.events, 'body'), ['a-0 of c', 'b-1 of c', 'c-2 of c'])
    assert.deepEqual(outputsOf(ports.events, 'loop'), [
      { item: 'a', index: 0 },
      { item: 'b', index: 1 },
      { item: 'c', index: 2 },
      { iterations: 3, broken: false },
    ])
    assert.equal(result.output, 'after 3')
    assert.equal(result.state.iterations, 3)
    assert.deepEqual(result.state.memory ?? {}, {}, 'a finished loop keeps nothing')
    assert.notInclude(trail(ports.events), 'broken:success')
  })

  test('a number of times, and an empty list is done at once', async ({ assert }) => {
    const counted = memoryPorts(RUNNERS)
    const times = await new WorkflowExecutor(
      loopWorkflow({ mode: 'count', times: 4 }, null, 'round {{$input.index}}'),
      counted
    ).start({ runId: 'r', trigger: 'manual' })
    assert.deepEqual(outputsOf(counted.events, 'body'), [
      'round 0',
      'round 1',
      'round 2',
      'round 3',
    ])
    assert.equal(times.output, 'after 4')

    const empty = memoryPorts(RUNNERS)
    const none = await new WorkflowExecutor(
      loopWorkflow({ mode: 'list' }, [], 'never'),
      empty
    ).start({ runId: 'r', trigger: 'manual' })
    assert.equal(none.output, 'after 0')
    assert.deepEqual(outputsOf(empty.events, 'body'), [])
  })

  test('until a condition on the last iteration holds', async ({ assert }) => {
    const ports = memoryPorts(RUNNERS)
    const result = await new WorkflowExecutor(
      loopWorkflow(
        {
          mode: 'until',
          until: {
            comparisons: [
              { variableId: '{{$input.value}}', comparisonOperator: 'Equal to', value: 'x2' },
            ],
            logicalOperator: 'AND',
          },
        },
        null,
        { value: 'x{{$input.index}}' }
      ),
      ports
    ).start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'success')
    assert.deepEqual(outputsOf(ports.events, 'body'), [
      { value: 'x0' },
      { value: 'x1' },
      { value: 'x2' },
    ])
    assert.equal(result.output, 'after 3')
  })

  test('Break leaves through its branch between two iterations', async ({ assert }) => {
    const ports = memoryPorts(RUNNERS)
    const result = await new WorkflowExecutor(
      loopWorkflow(
        {
          mode: 'list',
          breakWhen: {
            comparisons: [
              { variableId: '{{$input.name}}', comparisonOperator: 'Equal to', value: 'stop' },
            ],
            logicalOperator: 'AND',
          },
        },
        ['go', 'stop', 'never'],
        { name: '{{$input.item}}' }
      ),
      ports
    ).start({ runId: 'r', trigger: 'manual' })
    assert.deepEqual(outputsOf(ports.events, 'body'), [{ name: 'go' }, { name: 'stop' }])
    assert.equal(result.output, 'broken after 2')
    assert.notInclude(trail(ports.events), 'after:success')
  })

  test('a list path that is not a list fails the node', async ({ assert }) => {
    const result = await new WorkflowExecutor(
      loopWorkflow({ mode: 'list', listPath: 'body' }, { body: 'text' }, 'never'),
      memoryPorts(RUNNERS)
    ).start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'error')
    assert.equal(result.error, `loop: ${LOOP_MESSAGES.notAList('body')}`)
  })

  test("the run's iteration bound and LOOP_MAX_ITERATIONS stop a loop", async ({ assert }) => {
    const bounded = await new WorkflowExecutor(
      loopWorkflow({ mode: 'count', times: 100 }, null, 'round'),
      memoryPorts(RUNNERS),
      { maxIterations: 5 }
    ).start({ runId: 'r', trigger: 'manual' })
    assert.equal(bounded.status, 'error')
    assert.equal(bounded.error, `loop: ${RUN_ERRORS.iterations(5)}`)
    assert.equal(bounded.state.iterations, 5)

    env.set('LOOP_MAX_ITERATIONS', 3 as any)
    const ports = memoryPorts(RUNNERS)
    const stopped = await new WorkflowExecutor(
      loopWorkflow({ mode: 'until' }, null, 'forever'),
      ports
    ).start({ runId: 'r', trigger: 'manual' })
    assert.equal(stopped.status, 'error')
    assert.equal(stopped.error, `loop: ${LOOP_MESSAGES.maximum(3)}`)
    assert.lengthOf(outputsOf(ports.events, 'body'), 3)
  })

  test('a loop reached again from before it starts over', async ({ assert }) => {
    // Twice around an outer cycle: trigger → loop (2 rounds) → done → again → loop.
    const ports = memoryPorts({
      ...RUNNERS,
      again: ({ workflow }) => ({
        output: workflow?.input,
        conditionId: (workflow?.memory as number | undefined) ? null : 'more',
        memory: 1,
      }),
    })
    const result = await new WorkflowExecutor(
      workflowOf(
        [
          { id: 'trigger', type: 'manual-trigger' },
          { id: 'loop', type: 'loop', options: { mode: 'count', times: 2 }, conditions: EXITS },
          { id: 'body', options: { output: 'round {{$input.index}}' } },
          { id: 'again', type: 'again', conditions: [{ id: 'more' }] },
        ],
        [
          ['trigger', 'loop'],
          ['loop', 'body', 'each'],
          ['body', 'loop'],
          ['loop', 'again', 'done'],
          ['again', 'loop', 'more'],
        ]
      ),
      ports
    ).start({ runId: 'r', trigger: 'manual' })
    assert.equal(result.status, 'success')
    assert.deepEqual(outputsOf(ports.events, 'body'), ['round 0', 'round 1', 'round 0', 'round 1'])
  })

  test('10,000 items: every iteration recorded, memory bounded', async ({ assert }) => {
    const items = Array.from({ length: 10_000 }, (_, index) => ({
      id: index,
      name: `item ${index}`,
    }))
    const ports = memoryPorts(RUNNERS)
    // A store writes records and checkpoints away; keeping every copy here would measure the
    // test, not the executor.
    const recorded = { body: 0, loop: 0, checkpoints: 0 }
    const before = process.memoryUsage().heapUsed
    let peak = 0
    ports.record = (event) => {
      if (event.type === 'checkpoint') {
        // The highest the heap went during the run, sampled every 500 nodes.
        if (++recorded.checkpoints % 500 === 0) {
          peak = Math.max(peak, process.memoryUsage().heapUsed - before)
        }
      } else if (event.type === 'node' && event.status === 'success') {
        if (event.nodeId === 'body' || event.nodeId === 'loop') recorded[event.nodeId]++
      }
    }
    ports.calls.push = () => 0
    const executor = new WorkflowExecutor(
      loopWorkflow({ mode: 'list', listPath: 'rows' }, { rows: items }, '{{$input.item.name}}'),
      ports
    )
    const started = performance.now()
    const result = await executor.start({ runId: 'r', trigger: 'manual' })
    const elapsed = performance.now() - started
    const growth = Math.max(peak, process.memoryUsage().heapUsed - before)
    assert.equal(result.status, 'success', result.error)
    assert.equal(result.output, 'after 10000')
    assert.equal(recorded.body, 10_000)
    assert.equal(recorded.loop, 10_001)
    assert.equal(result.state.iterations, 10_000)
    // The result keeps its node events (4 per iteration): well under 200 MB on a loaded
    // machine; the list itself is held once, not copied per iteration.
    assert.isBelow(growth, 200 * 1024 * 1024, `heap grew by ${Math.round(growth / 1048576)} MB`)
    assert.isBelow(elapsed, 60_000, `took ${Math.round(elapsed)} ms`)
    console.log(
      `10,000 iterations: ${Math.round(elapsed)} ms, heap +${Math.round(growth / 1048576)} MB`
    )
  }).timeout(120_000)
})
