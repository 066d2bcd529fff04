import { test } from '@japa/runner'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateBot } from '#actions/bots/create_bot'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { sendJson, startStandIn } from '#tests/stand_ins/stand_in_server'
import { publishedWorkflow, type NodeSpec } from './workflow_fixtures.js'
import { apiOwner, askOnce, paragraph, publishBot } from './ai/provider_fixtures.js'

/**
 * The twin plugins folded into one each (docs/plugins.md, "Serving bots and workflows"):
 * every folded plugin is in both palettes, under each surface's category and with the
 * fields of that surface only; workflows stored with the former workflow-only ids open,
 * validate and run as the folded plugin, as do the same workflows stored with today's ids;
 * and bots run the same plugins through the chat API.
 */

/** Folded plugin → [bot category, workflow category, a bot-only field, a workflow-only field]. */
const FOLDED: Record<string, [string, string, string | null, string | null]> = {
  'Condition': ['logic', 'flow', null, null],
  'Set variable': ['logic', 'flow', 'isExecutedOnClient', 'value'],
  'Code': ['logic', 'flow', 'isExecutedOnClient', null],
  'Wait': ['logic', 'flow', 'shouldPause', 'resume'],
  'Webhook': ['integration', 'action', 'responseVariableMapping', 'ignoreErrorStatus'],
  'llm-agent': ['integration', 'action', 'customTool', null],
  'groq': ['integration', 'model', null, null],
  'openai': ['integration', 'model', null, null],
}

const FORMER_IDS = [
  'workflow-condition',
  'workflow-set-variable',
  'workflow-script',
  'workflow-wait',
  'workflow-http-request',
  'workflow-llm-agent',
  'groq-chat-model',
  'openai-chat-model',
]

type ListedPlugin = {
  id: string
  category: string
  defaults: Record<string, unknown>
  form: { fields: { name: string }[]; actions?: { name: string }[] }
}

const fieldNames = (plugin: ListedPlugin) => plugin.form.fields.map((field) => field.name)
const actionNames = (plugin: ListedPlugin) => (plugin.form.actions ?? []).map((a) => a.name)

/** An HTTP service that echoes what it was sent, for the HTTP request of both engines. */
async function echoService() {
  return startStandIn(({ req, res, url, body }) =>
    sendJson(res, 201, { method: req.method, path: url.pathname, received: body ?? null })
  )
}

test.group('Plugins | the folded twins', () => {
  test('each folded plugin is in both palettes, with the fields of each surface', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Both' })
    const botPage = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    botPage.assertStatus(200)
    const inBots = new Map(
      (botPage.inertiaProps.plugins as ListedPlugin[]).map((plugin) => [plugin.id, plugin])
    )
    const flow = await publishedWorkflow([{ id: 'n1', type: 'manual-trigger' }])
    const flowPage = await client.get(`/workflows/${flow.id}`).loginAs(flow.user).withInertia()
    flowPage.assertStatus(200)
    const inWorkflows = new Map(
      (flowPage.inertiaProps.plugins as ListedPlugin[]).map((plugin) => [plugin.id, plugin])
    )
    const api = await client
      .get(`/api/v1/plugins?workspaceId=${flow.workspaceId}&surface=workflow`)
      .loginAs(flow.user)
    api.assertStatus(200)
    const inWorkflowApi = new Map(
      (api.body().plugins as ListedPlugin[]).map((plugin) => [plugin.id, plugin])
    )

    for (const [id, [botCategory, workflowCategory, botOnly, workflowOnly]] of Object.entries(
      FOLDED
    )) {
      const asBlock = inBots.get(id)
      const asNode = inWorkflows.get(id)
      assert.exists(asBlock, `${id} in the bot sidebar`)
      assert.exists(asNode, `${id} in the workflow palette`)
      assert.equal(asBlock!.category, botCategory, id)
      assert.equal(asNode!.category, workflowCategory, id)
      assert.equal(inWorkflowApi.get(id)?.category, workflowCategory, id)
      if (botOnly) {
        assert.include(fieldNames(asBlock!), botOnly, id)
        assert.notInclude(fieldNames(asNode!), botOnly, id)
      }
      if (workflowOnly) {
        assert.include(fieldNames(asNode!), workflowOnly, id)
        assert.notInclude(fieldNames(asBlock!), workflowOnly, id)
      }
    }
    for (const id of FORMER_IDS) {
      assert.isFalse(inBots.has(id), `${id} is not a plugin of its own`)
      assert.isFalse(inWorkflows.has(id), `${id} is not a plugin of its own`)
    }
    // A chat provider lends workflows its Model node only, and bots its other actions.
    assert.deepEqual(actionNames(inWorkflows.get('openai')!), ['Chat model'])
    assert.notInclude(actionNames(inBots.get('openai')!), 'Chat model')
    assert.include(actionNames(inBots.get('openai')!), 'Create chat completion')
    assert.equal(inWorkflows.get('groq')!.defaults.action, 'Chat model')
  })

  test('nodes stored with the former ids open as the folded plugins, in their shape', async ({
    client,
    assert,
  }) => {
    const flow = await publishedWorkflow([
      { id: 'n1', type: 'manual-trigger' },
      {
        id: 'http',
        type: 'workflow-http-request',
        options: {
          method: 'PUT',
          url: 'https://api.example.com/items',
          query: [{ key: 'q', value: '1' }],
          headers: [{ key: 'x-a', value: 'b' }],
          body: '{"a": 1}',
          timeout: 5,
        },
      },
      { id: 'code', type: 'workflow-script', options: { code: 'return 1' } },
      { id: 'model', type: 'groq-chat-model', options: { model: 'm' } },
      { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
    ])
    const page = await client.get(`/workflows/${flow.id}`).loginAs(flow.user).withInertia()
    page.assertStatus(200)
    const nodes = new Map(
      ((page.inertiaProps.workflow as any).blocks as any[]).map((block) => [block.id, block])
    )
    assert.equal(nodes.get('http').type, 'Webhook')
    assert.deepEqual(nodes.get('http').options, {
      webhook: {
        method: 'PUT',
        url: 'https://api.example.com/items',
        queryParams: [{ key: 'q', value: '1' }],
        headers: [{ key: 'x-a', value: 'b' }],
        body: '{"a": 1}',
      },
      isCustomBody: true,
      timeout: 5,
    })
    assert.deepEqual(nodes.get('code'), { ...nodes.get('code'), type: 'Code' })
    assert.deepEqual(nodes.get('code').options, { content: 'return 1' })
    assert.equal(nodes.get('model').type, 'groq')
    assert.deepEqual(nodes.get('model').options, { model: 'm', action: 'Chat model' })
    assert.equal(nodes.get('set').type, 'Set variable')
    assert.deepEqual(nodes.get('set').options, { variableId: 'v1', value: 'x' })

    // The validator of the folded plugin reads the former shape.
    const owner = await apiOwner()
    const refused = await client
      .post('/api/v1/plugins/validate')
      .bearerToken(owner.token)
      .json({ id: 'workflow-http-request', options: { method: 'GET', timeout: 500 } })
    refused.assertStatus(422)
    const messages = (refused.body().errors as { message: string }[]).map((e) => e.message)
    assert.includeMembers(messages, ['URL is required', 'Timeout (seconds) must be at most 120'])
    const valid = await client
      .post('/api/v1/plugins/validate')
      .bearerToken(owner.token)
      .json({ id: 'workflow-http-request', options: { url: 'https://x.test', timeout: 5 } })
    valid.assertStatus(200)
  })

  for (const ids of ['former', 'current'] as const) {
    test(`a workflow stored with the ${ids} ids runs: set variable, condition, HTTP request, script`, async ({
      assert,
    }) => {
      const service = await echoService()
      const former = ids === 'former'
      const nodes: NodeSpec[] = [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'name',
          type: former ? 'workflow-set-variable' : 'Set variable',
          options: { variableId: 'v-name', value: '{{$input.name}}' },
        },
        {
          id: 'check',
          type: former ? 'workflow-condition' : 'Condition',
          conditions: [
            {
              id: 'is-ada',
              content: {
                logicalOperator: 'AND',
                comparisons: [
                  { id: 'c1', variableId: 'v-name', comparisonOperator: 'Equal to', value: 'Ada' },
                ],
              },
            },
          ],
        },
        {
          id: 'call',
          type: former ? 'workflow-http-request' : 'Webhook',
          options: former
            ? { method: 'POST', url: `${service.baseUrl}/people`, body: '{"name": "{{Name}}"}' }
            : {
                webhook: {
                  method: 'POST',
                  url: `${service.baseUrl}/people`,
                  body: '{"name": "{{Name}}"}',
                },
                isCustomBody: true,
              },
        },
        {
          id: 'shape',
          type: former ? 'workflow-script' : 'Code',
          options: {
            [former ? 'code' : 'content']:
              'return { status: input.statusCode, echoed: input.body.received.name, name: Name }',
          },
        },
        { id: 'other', type: former ? 'workflow-script' : 'Code', options: {} },
      ]
      const workflow = await publishedWorkflow(nodes, {
        variables: [{ id: 'v-name', name: 'Name' }],
        edges: [
          ['trigger', 'name'],
          ['name', 'check'],
          ['check', 'call', 'is-ada'],
          ['check', 'other'],
          ['call', 'shape'],
        ],
      })
      const runId = await createRun(workflow, 'manual', { name: 'Ada' })
      const outcome = await executeRun(runId)
      const ran = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
      assert.equal(outcome?.status, 'success', JSON.stringify(ran.map((n) => [n.nodeId, n.logs])))
      const run = await WorkflowRun.findOrFail(runId)
      assert.deepEqual(run.output, { status: 201, echoed: 'Ada', name: 'Ada' })
      assert.deepEqual(
        ran.map((node) => node.nodeId),
        ['trigger', 'name', 'check', 'call', 'shape']
      )
      assert.deepEqual(service.requests[0].body, { name: 'Ada' })
      assert.equal(service.requests[0].headers['content-type'], 'application/json')

      // An error status fails the node in a workflow (a bot logs it and goes on).
      const failing = await publishedWorkflow([
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'call',
          type: former ? 'workflow-http-request' : 'Webhook',
          options: former
            ? { method: 'GET', url: 'http://127.0.0.1:1/nothing-listens' }
            : { webhook: { method: 'GET', url: 'http://127.0.0.1:1/nothing-listens' } },
        },
      ])
      const failed = await executeRun(await createRun(failing, 'manual', {}))
      assert.equal(failed?.status, 'error')
      await service.close()
    })
  }

  test('a workflow node stored with the former Wait id parks the run', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      {
        id: 'pause',
        type: 'workflow-wait',
        options: { resume: 'interval', amount: 2, unit: 'hours' },
      },
      { id: 'after', type: 'Code', options: { content: 'return { done: true }' } },
    ])
    const runId = await createRun(workflow, 'manual', {})
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'waiting')
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'waiting')
  })

  test('a bot runs the folded plugins through the chat API', async ({ client, assert }) => {
    const service = await echoService()
    const owner = await apiOwner()
    const publicId = await publishBot(client, owner, {
      version: '6',
      name: 'Folded',
      events: [
        { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
      ],
      edges: [
        { id: 'e1', from: { eventId: 'start' }, to: { groupId: 'g1' } },
        { id: 'e-yes', from: { blockId: 'check', itemId: 'yes' }, to: { groupId: 'g-yes' } },
        { id: 'e-no', from: { blockId: 'check' }, to: { groupId: 'g-no' } },
      ],
      variables: [
        { id: 'v_q', name: 'Question' },
        { id: 'v_up', name: 'Upper' },
        { id: 'v_echo', name: 'Echo' },
      ],
      groups: [
        {
          id: 'g1',
          title: 'Ask',
          graphCoordinates: { x: 0, y: 100 },
          blocks: [
            { id: 'q1', type: 'text input', options: { variableId: 'v_q' } },
            {
              id: 'set',
              type: 'Set variable',
              options: {
                variableId: 'v_up',
                type: 'Custom',
                isCode: true,
                expressionToEvaluate: '{{Question}}.toUpperCase()',
              },
            },
            {
              id: 'call',
              type: 'Webhook',
              options: {
                webhook: {
                  method: 'POST',
                  url: `${service.baseUrl}/shout`,
                  body: '{"text": "{{Upper}}"}',
                },
                isCustomBody: true,
                responseVariableMapping: [
                  { id: 'm1', bodyPath: 'data.received.text', variableId: 'v_echo' },
                ],
              },
            },
            { id: 'wait', type: 'Wait', options: { secondsToWaitFor: 1 } },
            {
              id: 'check',
              type: 'Condition',
              items: [
                {
                  id: 'yes',
                  outgoingEdgeId: 'e-yes',
                  content: {
                    logicalOperator: 'AND',
                    comparisons: [
                      {
                        id: 'c1',
                        variableId: 'v_echo',
                        comparisonOperator: 'Equal to',
                        value: 'HELLO',
                      },
                    ],
                  },
                },
              ],
              outgoingEdgeId: 'e-no',
            },
          ],
        },
        {
          id: 'g-yes',
          title: 'Yes',
          graphCoordinates: { x: 300, y: 0 },
          blocks: [{ id: 't-yes', type: 'text', content: paragraph('Heard {{Echo}}') }],
        },
        {
          id: 'g-no',
          title: 'No',
          graphCoordinates: { x: 300, y: 200 },
          blocks: [{ id: 't-no', type: 'text', content: paragraph('Not heard') }],
        },
      ],
      theme: {},
      settings: {},
    })
    const { reply } = await askOnce(client, publicId, 'hello')
    const texts = JSON.stringify(reply.messages)
    assert.include(texts, 'Heard HELLO')
    // The bot's Wait is the client's: it waits a second before what follows.
    assert.include(JSON.stringify(reply), '"secondsToWaitFor":1')
    assert.deepEqual(service.requests[0].body, { text: 'HELLO' })
    await service.close()
  })
})
