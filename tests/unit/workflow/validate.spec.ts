import { test } from '@japa/runner'
import {
  compileExecutable,
  upstreamExecutable,
  importWorkflow,
  NEEDS_ONE_TRIGGER_MESSAGE,
  validateWorkflow,
  WORKFLOW_PARSE_ERROR_MESSAGE,
  WorkflowCompileError,
  WorkflowParseError,
} from '#shared/workflow/validate'
import {
  defaultWorkflowSettings,
  type WorkflowBlock,
  type WorkflowJson,
} from '#shared/workflow/types'

const CATEGORIES: Record<string, string> = {
  'test-trigger': 'trigger',
  'test-action': 'action',
  'test-agent': 'action',
  'test-model': 'model',
  'test-tool': 'tool',
  'test-wait': 'flow',
  'test-condition': 'flow',
}
const categoryOf = (type: string) => CATEGORIES[type]
const isWait = (block: WorkflowBlock) => block.type === 'test-wait'

function node(id: string, type: string, extra: Partial<WorkflowBlock> = {}): WorkflowBlock {
  return { id, type, graphCoordinates: { x: 0, y: 0 }, ...extra }
}

/** trigger → condition (yes → wait → action, no → action); an agent with a model and tools. */
function sample(): WorkflowJson {
  return {
    name: 'Orders',
    blocks: [
      node('trigger', 'test-trigger', { outgoingEdgeId: 'e1' }),
      node('check', 'test-condition', { conditions: [{ id: 'yes' }, { id: 'no' }] }),
      node('pause', 'test-wait', { outgoingEdgeId: 'e4' }),
      node('send', 'test-action', { graphCoordinates: { x: 10.123, y: -5.556 } }),
      node('agent', 'test-agent'),
      node('gpt', 'test-model'),
      node('search', 'test-tool'),
      node('sql', 'test-tool'),
    ],
    edges: [
      { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'check' } },
      { id: 'e2', from: { blockId: 'check', conditionId: 'yes' }, to: { blockId: 'pause' } },
      { id: 'e3', from: { blockId: 'check', conditionId: 'no' }, to: { blockId: 'send' } },
      { id: 'e4', from: { blockId: 'pause' }, to: { blockId: 'send' } },
      { id: 'e5', from: { blockId: 'send' }, to: { blockId: 'agent' } },
      {
        id: 'a1',
        from: { blockId: 'agent' },
        to: { blockId: 'gpt' },
        isAttachment: true,
        attachmentName: 'model',
      },
      {
        id: 'a2',
        from: { blockId: 'agent' },
        to: { blockId: 'search' },
        isAttachment: true,
        attachmentName: 'tools',
      },
      {
        id: 'a3',
        from: { blockId: 'agent' },
        to: { blockId: 'sql' },
        isAttachment: true,
        attachmentName: 'tools',
      },
    ],
    variables: [{ id: 'v1', name: 'Order id' }],
    settings: defaultWorkflowSettings(),
  }
}

function problemsOf(raw: unknown) {
  const result = validateWorkflow(raw)
  return result.ok ? [] : result.errors
}

function pathsOf(raw: unknown) {
  return problemsOf(raw).map((error) => error.path)
}

test.group('validateWorkflow', () => {
  test('accepts a well-formed graph and rounds coordinates to 2 decimals', ({ assert }) => {
    const result = validateWorkflow(sample())
    assert.isTrue(result.ok)
    if (!result.ok) return
    assert.deepEqual(result.workflow.blocks[3].graphCoordinates, { x: 10.12, y: -5.56 })
  })

  test('refuses what is not a workflow object', ({ assert }) => {
    assert.deepEqual(pathsOf(null), [''])
    assert.deepEqual(pathsOf({ name: 'x', blocks: {}, edges: [], variables: [], settings: {} }), [
      'blocks',
    ])
    assert.includeMembers(pathsOf({ blocks: [], edges: [], variables: [] }), ['name', 'settings'])
  })

  test('ids are unique across nodes, conditions, edges and variables', ({ assert }) => {
    const workflow = sample()
    workflow.blocks[1].conditions = [{ id: 'yes' }, { id: 'send' }]
    workflow.variables.push({ id: 'e1', name: 'Other' })
    const errors = problemsOf(workflow)
    assert.deepInclude(errors, {
      path: 'blocks.3.id',
      message: 'Id "send" is already used at blocks.1.conditions.1',
    })
    assert.deepInclude(errors, {
      path: 'variables.1.id',
      message: 'Id "e1" is already used at edges.0',
    })
  })

  test('edges join existing nodes and conditions', ({ assert }) => {
    const workflow = sample()
    workflow.edges.push(
      { id: 'x1', from: { blockId: 'ghost' }, to: { blockId: 'send' } },
      { id: 'x2', from: { blockId: 'check', conditionId: 'maybe' }, to: { blockId: 'send' } },
      { id: 'x3', from: { blockId: 'send' }, to: { blockId: 'nowhere' } }
    )
    const errors = problemsOf(workflow)
    assert.deepInclude(errors, {
      path: 'edges.8.from.blockId',
      message: 'No node has the id "ghost"',
    })
    assert.deepInclude(errors, {
      path: 'edges.9.from.conditionId',
      message: 'No condition of the node has the id "maybe"',
    })
    assert.deepInclude(errors, {
      path: 'edges.10.to.blockId',
      message: 'No node has the id "nowhere"',
    })
  })

  test("a node's outgoingEdgeId names an edge that leaves it", ({ assert }) => {
    const workflow = sample()
    workflow.blocks[0].outgoingEdgeId = 'e4'
    assert.deepEqual(problemsOf(workflow), [
      { path: 'blocks.0.outgoingEdgeId', message: 'No edge "e4" leaves from this node' },
    ])
  })

  test('an LLM agent takes one Model attachment and any number of tools', ({ assert }) => {
    const workflow = sample()
    workflow.blocks.push(node('claude', 'test-model'))
    workflow.edges.push({
      id: 'a4',
      from: { blockId: 'agent' },
      to: { blockId: 'claude' },
      isAttachment: true,
      attachmentName: 'model',
    })
    assert.deepEqual(problemsOf(workflow), [
      { path: 'edges.8', message: 'An LLM agent node takes a single Model attachment' },
    ])
  })

  test('schedule options stay within their bounds; variables pass', ({ assert }) => {
    const withOptions = (options: Record<string, unknown>) => {
      const workflow = sample()
      workflow.blocks[0].options = options
      return pathsOf(workflow)
    }
    assert.deepEqual(
      withOptions({ minutesInterval: 1, hour: 23, dayOfWeek: [0, 6], dayOfMonth: '31' }),
      []
    )
    assert.deepEqual(withOptions({ minutesInterval: '{{Every}}', hour: null }), [])
    assert.deepEqual(withOptions({ minutesInterval: 0 }), ['blocks.0.options.minutesInterval'])
    assert.deepEqual(withOptions({ minutesInterval: 60 }), ['blocks.0.options.minutesInterval'])
    assert.deepEqual(withOptions({ hour: 24 }), ['blocks.0.options.hour'])
    assert.deepEqual(withOptions({ hour: 1.5 }), ['blocks.0.options.hour'])
    assert.deepEqual(withOptions({ dayOfWeek: [1, 7] }), ['blocks.0.options.dayOfWeek'])
    assert.deepEqual(withOptions({ dayOfMonth: 0 }), ['blocks.0.options.dayOfMonth'])
    assert.deepEqual(withOptions({ dayOfMonth: 'soon' }), ['blocks.0.options.dayOfMonth'])
    const [error] = problemsOf({ ...sample(), blocks: [node('t', 'x', { options: { hour: -1 } })] })
    assert.equal(error.message, 'hour must be a whole number from 0 to 23')
  })

  test('variable names follow the rule; settings are checked where present', ({ assert }) => {
    const workflow = sample()
    workflow.variables.push({ id: 'v2', name: 'Bad?' })
    workflow.settings = {
      errorHandling: { retryCount: -1, retryDelay: 10 },
      timeout: 0,
      concurrency: 2.5,
      logging: { level: 'verbose' as any, retentionDays: 30 },
    }
    assert.sameMembers(pathsOf(workflow), [
      'variables.1.name',
      'settings.errorHandling.retryCount',
      'settings.timeout',
      'settings.concurrency',
      'settings.logging.level',
    ])
    assert.deepEqual(pathsOf({ ...sample(), settings: {} }), [])
  })

  test('names are at most 255 characters (imports are cut to fit)', ({ assert }) => {
    assert.deepEqual(pathsOf({ ...sample(), name: 'x'.repeat(256) }), ['name'])
    assert.deepEqual(pathsOf({ ...sample(), name: 'é'.repeat(255) }), [])
    const imported = importWorkflow({ ...sample(), name: '🙂'.repeat(300) })
    assert.equal(Array.from(imported.name).length, 255)
  })

  test('nodes need a type and finite coordinates', ({ assert }) => {
    const workflow = sample()
    workflow.blocks.push({ id: 'n', type: '', graphCoordinates: { x: Number.NaN, y: 0 } })
    assert.sameMembers(pathsOf(workflow), ['blocks.8.type', 'blocks.8.graphCoordinates.x'])
  })
})

test.group('importWorkflow', () => {
  test('fills defaults and keeps unknown fields', ({ assert }) => {
    const imported = importWorkflow({
      blocks: [{ id: 'a', type: 'test-trigger', custom: { keep: true } }],
      settings: { timeout: 60, logging: { level: 'debug' } },
      somethingElse: 42,
    })
    assert.equal(imported.name, 'My workflow')
    assert.isNull(imported.description)
    assert.equal(imported.version, 1)
    assert.deepEqual(imported.edges, [])
    assert.deepEqual(imported.variables, [])
    assert.deepEqual(imported.blocks[0].graphCoordinates, { x: 0, y: 0 })
    assert.deepEqual((imported.blocks[0] as any).custom, { keep: true })
    assert.equal((imported as any).somethingElse, 42)
    assert.equal(imported.settings.timeout, 60)
    assert.deepEqual(imported.settings.logging, { level: 'debug', retentionDays: 30 })
    assert.deepEqual(imported.settings.errorHandling, defaultWorkflowSettings().errorHandling)
    assert.isTrue(validateWorkflow(imported).ok)
  })

  test('accepts JSON text and a {workflow} wrapper; the export round-trips', ({ assert }) => {
    const exported = { ...sample(), id: 'wf12345678', status: 'PUBLISHED', isActive: true }
    const imported = importWorkflow(JSON.stringify({ workflow: exported }))
    assert.deepEqual(imported, importWorkflow(exported))
    assert.deepEqual(imported.blocks, exported.blocks)
    assert.deepEqual(imported.edges, exported.edges)
    assert.equal(imported.id, 'wf12345678')
  })

  test('drops edges that point nowhere and the outgoingEdgeIds naming them', ({ assert }) => {
    const imported = importWorkflow({
      name: 'Broken',
      blocks: [
        { id: 'a', type: 'test-trigger', outgoingEdgeId: 'gone' },
        { id: 'b', type: 'test-action', outgoingEdgeId: 'e2' },
      ],
      edges: [
        { id: 'gone', from: { blockId: 'a' }, to: { blockId: 'missing' } },
        { id: 'e2', from: { blockId: 'b' }, to: { blockId: 'a' } },
        { id: 'e3', from: { blockId: 'a', conditionId: 'nope' }, to: { blockId: 'b' } },
        'not an edge',
      ],
    })
    assert.deepEqual(
      imported.edges.map((edge) => edge.id),
      ['e2']
    )
    assert.notProperty(imported.blocks[0], 'outgoingEdgeId')
    assert.equal(imported.blocks[1].outgoingEdgeId, 'e2')
    assert.isTrue(validateWorkflow(imported).ok)
  })

  test('repairs variable names other tools allow and rewrites their references', ({ assert }) => {
    const imported = importWorkflow({
      blocks: [{ id: 'a', type: 'test-action', options: { text: 'Hi {{First name?}}' } }],
      variables: [
        { id: 'v1', name: 'First name?' },
        { id: 'v2', name: 'First name' },
      ],
    })
    assert.deepEqual(
      imported.variables.map((v) => v.name),
      ['First name 2', 'First name']
    )
    assert.equal(imported.blocks[0].options!.text, 'Hi {{First name 2}}')
  })

  test('refuses anything else with the parse message', ({ assert }) => {
    for (const raw of [
      null,
      42,
      '{ not json',
      { name: 'no blocks' },
      { blocks: [{ type: 'no id' }] },
      { blocks: [], edges: {} },
      { groups: [], events: [] },
    ]) {
      assert.throws(() => importWorkflow(raw), WORKFLOW_PARSE_ERROR_MESSAGE)
      try {
        importWorkflow(raw)
      } catch (error) {
        assert.instanceOf(error, WorkflowParseError)
      }
    }
  })
})

test.group('compileExecutable', () => {
  test('keeps enabled nodes, starts at the trigger, lists the waits', ({ assert }) => {
    const executable = compileExecutable(sample(), categoryOf, isWait)
    assert.equal(executable.root_block, 'trigger')
    assert.deepEqual(executable.wait_blocks, ['pause'])
    assert.lengthOf(executable.blocks, 8)
    assert.lengthOf(executable.edges, 8)
  })

  test('disabled flow nodes stay with their edges, flagged, and are no waits', ({ assert }) => {
    const workflow = sample()
    workflow.blocks[2].isDisabled = true
    const executable = compileExecutable(workflow, categoryOf, isWait)
    const pause = executable.blocks.find((block) => block.id === 'pause')
    assert.isTrue(pause?.isDisabled)
    assert.equal(pause?.outgoingEdgeId, 'e4')
    assert.deepEqual(executable.wait_blocks, [])
    assert.includeMembers(
      executable.edges.map((edge) => edge.id),
      ['e2', 'e4']
    )
  })

  test('disabled triggers and disabled attachments are left out with their edges', ({ assert }) => {
    const workflow = sample()
    workflow.blocks.push(node('old', 'test-trigger', { isDisabled: true }))
    workflow.edges.push({ id: 'e9', from: { blockId: 'old' }, to: { blockId: 'check' } })
    workflow.blocks[6].isDisabled = true
    const executable = compileExecutable(workflow, categoryOf, isWait)
    const ids = executable.blocks.map((block) => block.id)
    assert.notInclude(ids, 'old')
    assert.notInclude(ids, 'search')
    assert.notIncludeMembers(
      executable.edges.map((edge) => edge.id),
      ['e9', 'a2']
    )
  })

  test('no enabled trigger, or several: "A workflow needs one trigger"', ({ assert }) => {
    const none = sample()
    none.blocks[0].isDisabled = true
    const two = sample()
    two.blocks.push(node('trigger2', 'test-trigger'))
    for (const [workflow, count] of [
      [none, 0],
      [two, 2],
    ] as const) {
      try {
        compileExecutable(workflow, categoryOf, isWait)
        assert.fail('compiled without a single trigger')
      } catch (error) {
        assert.instanceOf(error, WorkflowCompileError)
        assert.equal((error as WorkflowCompileError).message, NEEDS_ONE_TRIGGER_MESSAGE)
        assert.equal((error as WorkflowCompileError).triggerCount, count)
      }
    }
  })

  test('unknown node types count as no category', ({ assert }) => {
    const workflow = sample()
    workflow.blocks[0].type = 'uninstalled'
    assert.throws(() => compileExecutable(workflow, categoryOf), NEEDS_ONE_TRIGGER_MESSAGE)
  })
})

test.group('upstreamExecutable (test this step)', () => {
  const compiled = () => compileExecutable(sample(), categoryOf, isWait)

  test('keeps the node, every path leading to it, and what those nodes plug in', ({ assert }) => {
    const agent = upstreamExecutable(compiled(), 'agent')!
    assert.sameMembers(
      agent.blocks.map((block) => block.id),
      ['trigger', 'check', 'pause', 'send', 'agent', 'gpt', 'search', 'sql']
    )
    const pause = upstreamExecutable(compiled(), 'pause')!
    assert.sameMembers(
      pause.blocks.map((block) => block.id),
      ['trigger', 'check', 'pause']
    )
    assert.deepEqual(
      pause.edges.map((edge) => edge.id),
      ['e1', 'e2']
    )
    // Its edge to a node left out is dropped, so the run ends with the node.
    assert.notProperty(
      pause.blocks.find((block) => block.id === 'pause'),
      'outgoingEdgeId'
    )
    assert.deepEqual(pause.wait_blocks, ['pause'])
    assert.equal(pause.root_block, 'trigger')
  })

  test('a node the trigger does not reach, or no node, gives nothing', ({ assert }) => {
    const workflow = sample()
    workflow.blocks.push(node('lone', 'test-action'))
    const executable = compileExecutable(workflow, categoryOf, isWait)
    assert.isNull(upstreamExecutable(executable, 'lone'))
    assert.isNull(upstreamExecutable(executable, 'missing'))
  })

  test('published executables never carry pinned trigger data', ({ assert }) => {
    const workflow = sample()
    workflow.blocks[0].pinnedData = { sample: true }
    const executable = compileExecutable(workflow, categoryOf, isWait)
    assert.notProperty(executable.blocks[0], 'pinnedData')
  })
})
