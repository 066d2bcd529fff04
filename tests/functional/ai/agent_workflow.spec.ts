import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import AiUsage from '#models/ai_usage'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateCredential } from '#actions/credentials/create_credential'
import { newId } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { categoryOn } from '#plugins/define_plugin'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { runNodeWith } from '#services/workflows/executor_ports'
import { compileExecutable } from '#shared/workflow/validate'
import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { startApiStandIn, startGroqStandIn } from '#tests/stand_ins/groq'

/**
 * The LLM agent workflow node run by the real executor: its model comes from a Groq chat
 * model node plugged into its Model slot (with that node's own credentials), its tools from
 * a custom tool and an API tool plugged into its Tools slot. The attached nodes are not
 * steps of the run.
 */

const API_KEY = 'gsk_workflow_agent'

async function agentWorkflow(
  groqBaseUrl: string,
  apiUrl: string,
  extra: {
    withModel?: boolean
    modelOptions?: Record<string, unknown>
    ordersOptions?: Record<string, unknown>
    /**
     * Stored with the ids of today's plugins (the agent, the Groq plugin's Chat model action,
     * the Script) instead of those of the workflow-only plugins they were folded from.
     */
    currentIds?: boolean
  } = {}
) {
  const current = extra.currentIds === true
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  const credential = await new CreateCredential().handle(user, workspace, {
    type: 'groq',
    name: 'Groq',
    data: { apiKey: API_KEY, baseUrl: groqBaseUrl },
  })
  const blocks: WorkflowBlock[] = [
    { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
    {
      id: 'agent',
      type: current ? 'llm-agent' : 'workflow-llm-agent',
      graphCoordinates: { x: 300, y: 0 },
      options: {
        queryPrompt: 'You help {{Team}} with orders.',
        userQuery: '{{$input.question}}',
      },
    },
    {
      id: 'model',
      type: current ? 'groq' : 'groq-chat-model',
      title: 'Fast model',
      graphCoordinates: { x: 300, y: 200 },
      options: {
        ...(current ? { action: 'Chat model' } : {}),
        credentialsId: credential.id,
        model: 'llama-3.1-8b-instant',
        temperature: 0.2,
        maxTokens: 512,
        ...extra.modelOptions,
      },
    },
    {
      id: 'double',
      type: 'custom-tool',
      graphCoordinates: { x: 500, y: 200 },
      options: {
        name: 'double',
        description: 'Doubles a number',
        multiVariable: [{ inputVariable: 'n', inputType: 'number', inputDescription: 'A number' }],
        functionCode: 'return n * 2',
      },
    },
    {
      id: 'orders',
      type: 'api-tool',
      graphCoordinates: { x: 700, y: 200 },
      options: {
        name: 'updateOrder',
        method: 'PUT',
        description: 'Updates an order',
        url: `${apiUrl}/orders/{orderId}`,
        headers: '{"authorization": "Token t-1"}',
        params: [{ name: 'orderId', type: 'string' }],
        queryParams: [{ name: 'notify', type: 'boolean' }],
        bodySchema: '{"status": "shipped"}',
        timeout: 5000,
        ...extra.ordersOptions,
      },
    },
    {
      id: 'script',
      type: current ? 'Code' : 'workflow-script',
      graphCoordinates: { x: 600, y: 0 },
      options: {
        [current ? 'content' : 'code']:
          'return { answer: input.output, calls: input.toolCalls.length }',
      },
    },
  ]
  const edges: WorkflowEdge[] = [
    { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'agent' } },
    { id: 'e2', from: { blockId: 'agent' }, to: { blockId: 'script' } },
    {
      id: 'a2',
      from: { blockId: 'agent' },
      to: { blockId: 'double' },
      isAttachment: true,
      attachmentName: 'tools',
    },
    {
      id: 'a3',
      from: { blockId: 'agent' },
      to: { blockId: 'orders' },
      isAttachment: true,
      attachmentName: 'tools',
    },
  ]
  if (extra.withModel !== false) {
    edges.push({
      id: 'a1',
      from: { blockId: 'agent' },
      to: { blockId: 'model' },
      isAttachment: true,
      attachmentName: 'model',
    })
  }
  const registry = await pluginRegistry()
  const executable = compileExecutable({ blocks, edges }, (type) => {
    const plugin = registry.get(type)
    return plugin ? categoryOn(plugin, 'workflow') : undefined
  })
  const id = newId()
  const now = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
  await db.table('workflows').insert({
    id,
    workspace_id: workspace.id,
    created_by: user.id,
    name: 'Agent',
    status: 'PUBLISHED',
    is_active: true,
    blocks: JSON.stringify(blocks),
    edges: JSON.stringify(edges),
    variables: JSON.stringify([{ id: 'v-team', name: 'Team', value: 'Support' }]),
    settings: JSON.stringify({}),
    executable_workflow: JSON.stringify(executable),
    created_at: now,
    updated_at: now,
  })
  return { workflow: (await loadWorkflow(id))!, user }
}

test.group('LLM agent workflow node', (group) => {
  let groq: Awaited<ReturnType<typeof startGroqStandIn>>
  let api: Awaited<ReturnType<typeof startApiStandIn>>
  group.each.setup(async () => {
    groq = await startGroqStandIn({ apiKey: API_KEY })
    api = await startApiStandIn((request) => ({
      status: 200,
      body: { id: request.path.split('/').pop(), ...request.body },
    }))
    return async () => {
      await groq.close()
      await api.close()
    }
  })

  test('the model comes from the Model attachment, the tools from the Tool attachments', async ({
    assert,
  }) => {
    const { workflow, user } = await agentWorkflow(groq.baseUrl, api.url)
    groq.reply(
      {
        toolCalls: [
          { name: 'double', arguments: { n: 21 } },
          {
            name: 'updateOrder',
            arguments: { orderId: 'B/7', notify: true, body: { status: 'shipped' } },
          },
        ],
      },
      { content: 'Doubled to 42 and order B/7 shipped.' }
    )
    const runId = await createRun(workflow, 'manual', { question: 'Double 21, ship B/7' })
    const outcome = await executeRun(runId)
    if (outcome?.status !== 'success') {
      const failed = await WorkflowRunNode.query().where('runId', runId)
      assert.fail(JSON.stringify(failed.map((node) => [node.nodeId, node.logs])))
    }

    const run = await WorkflowRun.findOrFail(runId)
    assert.deepEqual(run.output, { answer: 'Doubled to 42 and order B/7 shipped.', calls: 2 })
    // Attached nodes are not steps: only the trigger, the agent and the script ran.
    const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.status]),
      [
        ['trigger', 'success'],
        ['agent', 'success'],
        ['script', 'success'],
      ]
    )
    assert.deepEqual(nodes[1].output, {
      output: 'Doubled to 42 and order B/7 shipped.',
      toolCalls: [
        { name: 'double', arguments: { n: 21 }, output: '42' },
        {
          name: 'updateOrder',
          arguments: { orderId: 'B/7', notify: true, body: { status: 'shipped' } },
          output: JSON.stringify({ id: 'B%2F7', status: 'shipped' }),
        },
      ],
    })
    assert.deepEqual(
      nodes[1].logs?.map((log) => log.description),
      ['The agent called 2 tool(s)']
    )

    // The model node's credentials, model and settings reached the provider.
    assert.lengthOf(groq.requests, 2)
    const first = groq.requests[0].body
    assert.equal(groq.requests[0].headers.authorization, `Bearer ${API_KEY}`)
    assert.equal(first.model, 'llama-3.1-8b-instant')
    assert.equal(first.temperature, 0.2)
    assert.equal(first.max_tokens, 512)
    assert.deepEqual(first.messages, [
      { role: 'system', content: 'You help Support with orders.' },
      { role: 'user', content: 'Double 21, ship B/7' },
    ])
    assert.deepEqual(
      first.tools.map((tool: any) => tool.function.name),
      ['double', 'updateOrder']
    )
    assert.deepEqual(first.tools[1].function.parameters.required, ['orderId', 'body'])
    assert.deepEqual(first.tools[1].function.parameters.properties.notify, { type: 'boolean' })

    // The API tool's request.
    assert.lengthOf(api.requests, 1)
    const put = api.requests[0]
    assert.equal(put.method, 'PUT')
    assert.equal(put.path, '/orders/B%2F7')
    assert.equal(put.query.get('notify'), 'true')
    assert.equal(put.headers.authorization, 'Token t-1')
    assert.deepEqual(put.body, { status: 'shipped' })

    // Both model calls are charged to the workflow's owner, under the model node's model.
    const rows = await AiUsage.query().where('accountId', user.id)
    assert.deepEqual(
      rows.map((row) => [row.model, row.source]),
      [
        ['llama-3.1-8b-instant', 'llm-agent'],
        ['llama-3.1-8b-instant', 'llm-agent'],
      ]
    )
  })

  test('without a Model attachment the node fails and nothing is called', async ({ assert }) => {
    const { workflow } = await agentWorkflow(groq.baseUrl, api.url, { withModel: false })
    const runId = await createRun(workflow, 'manual', { question: 'Hi' })
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'error')
    const agent = await WorkflowRunNode.query()
      .where('runId', runId)
      .where('nodeId', 'agent')
      .firstOrFail()
    assert.equal(agent.status, 'error')
    assert.equal(agent.logs?.[0].description, 'LLM agent: plug a Model node into the Model slot')
    assert.lengthOf(groq.requests, 0)
  })

  test('stored with the current ids, the same agent runs: the Groq plugin lends its Chat model', async ({
    assert,
  }) => {
    const { workflow } = await agentWorkflow(groq.baseUrl, api.url, { currentIds: true })
    groq.reply({ toolCalls: [{ name: 'double', arguments: { n: 4 } }] }, { content: 'Eight.' })
    const runId = await createRun(workflow, 'manual', { question: 'Double 4' })
    const outcome = await executeRun(runId)
    if (outcome?.status !== 'success') {
      const failed = await WorkflowRunNode.query().where('runId', runId)
      assert.fail(JSON.stringify(failed.map((node) => [node.nodeId, node.logs])))
    }
    const run = await WorkflowRun.findOrFail(runId)
    assert.deepEqual(run.output, { answer: 'Eight.', calls: 1 })
    const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.nodeType, node.status]),
      [
        ['trigger', 'manual-trigger', 'success'],
        ['agent', 'llm-agent', 'success'],
        ['script', 'Code', 'success'],
      ]
    )
    // The model node's settings reached the provider.
    assert.equal(groq.requests[0].body.model, 'llama-3.1-8b-instant')
  })

  test("a model node's missing credentials fail the agent node", async ({ assert }) => {
    const { workflow } = await agentWorkflow(groq.baseUrl, api.url, {
      modelOptions: { credentialsId: 'no-such-credentials' },
    })
    const runId = await createRun(workflow, 'manual', { question: 'Hi' })
    assert.equal((await executeRun(runId))?.status, 'error')
    const agent = await WorkflowRunNode.query()
      .where('runId', runId)
      .where('nodeId', 'agent')
      .firstOrFail()
    assert.equal(agent.logs?.[0].description, 'Groq: the selected credentials were not found')
    assert.lengthOf(groq.requests, 0)
  })

  test('a Tool node run as a step only says where it belongs', async ({ assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const registry = await pluginRegistry()
    for (const type of ['custom-tool', 'api-tool']) {
      const block: WorkflowBlock = {
        id: 't1',
        type,
        graphCoordinates: { x: 0, y: 0 },
        options: { name: 'x', url: `${api.url}/x`, functionCode: 'return 1' },
      }
      const outcome = await runNodeWith(registry, {
        workflow: {
          id: 'wf',
          workspaceId: workspace.id,
          ownerId: user.id,
          executable: { blocks: [block], edges: [], root_block: 't1', wait_blocks: [] },
          settings: {},
          variables: [],
        },
        block,
        variables: [],
        signal: new AbortController().signal,
        context: {
          runId: 'r',
          workflowId: 'wf',
          node: { id: 't1', type },
          input: { a: 1 },
          trigger: 'manual',
          attempt: 1,
          conditions: [],
          evaluateCondition: () => false,
        },
      })
      assert.deepEqual(
        outcome.logs.map((log) => [log.status, log.description]),
        [
          [
            'info',
            'A Tool node only works attached to an LLM agent node (its Tools slot): on its own it does nothing.',
          ],
        ]
      )
    }
    assert.lengthOf(api.requests, 0)
  })

  test('an API tool times out after its timeout (at least 1000 ms) and the model is told', async ({
    assert,
  }) => {
    await api.close()
    api = await startApiStandIn(() => ({ status: 200, body: { late: true }, delayMs: 4000 }))
    // 300 ms is below the bound: the tool waits 1000 ms, well before the API's 4000 ms.
    const { workflow } = await agentWorkflow(groq.baseUrl, api.url, {
      ordersOptions: { timeout: 300 },
    })
    groq.reply(
      { toolCalls: [{ name: 'updateOrder', arguments: { orderId: '1', body: {} } }] },
      { content: 'The order service is slow.' }
    )
    const started = Date.now()
    const runId = await createRun(workflow, 'manual', { question: 'Hi' })
    assert.equal((await executeRun(runId))?.status, 'success')
    const elapsed = Date.now() - started
    assert.isAtLeast(elapsed, 1000)
    assert.isBelow(elapsed, 3500)
    const toolAnswer = groq.requests[1].body.messages.find((m: any) => m.role === 'tool')
    assert.match(toolAnswer.content, /^Error: .*timed out after 1000 ms/)
  })
})
