import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import AiUsage from '#models/ai_usage'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import { creditsCost, priceFor } from '#services/ai/credits'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { startApiStandIn, startGroqStandIn } from '#tests/stand_ins/groq'

/**
 * The LLM agent bot block (plugins/llm-agent) through the real runner context: the model
 * is a local Groq stand-in that checks each request, API tools call a second stand-in,
 * custom tools run in the sandbox, and usage is charged to the owner's AI credits.
 */

const API_KEY = 'gsk_test_agent'
const MODEL = 'llama-3.3-70b-versatile'

const variables: VariableState[] = [
  { id: 'v-question', name: 'Question', value: 'Where is order A 17 and what do 3 items cost?' },
  { id: 'v-answer', name: 'Answer' },
  { id: 'v-tokens', name: 'Tokens' },
]

async function owner() {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace }
}

async function runAgentBlock(
  options: Record<string, unknown>,
  who: Awaited<ReturnType<typeof owner>>
) {
  const registry = await pluginRegistry()
  return runPlugin({
    registry,
    plugin: registry.get('llm-agent')!,
    options,
    variables,
    workspaceId: who.workspace.id,
    ownerId: who.user.id,
    // A bot block outside a chat: the plugin serves workflows too, so say which.
    surface: 'bot',
  })
}

const baseOptions = (baseUrl: string) => ({
  agent: 'groq',
  secretKey: API_KEY,
  baseUrl,
  userQuery: '{{Question}}',
  responseMapping: [
    { item: 'Message content', variableId: 'v-answer' },
    { item: 'Total tokens', variableId: 'v-tokens' },
  ],
})

const priceTool = {
  name: 'price',
  description: 'Total price of some items',
  multiVariable: [
    { inputVariable: 'unitPrice', inputType: 'number', inputDescription: 'Price of one item' },
    { inputVariable: 'quantity', inputType: 'number' },
  ],
  functionCode: 'return { total: unitPrice * quantity }',
}

test.group('LLM agent bot block', (group) => {
  let groq: Awaited<ReturnType<typeof startGroqStandIn>>
  group.each.setup(async () => {
    groq = await startGroqStandIn({ apiKey: API_KEY })
    return () => groq.close()
  })

  test('custom and API tools are called, their answers fed back, usage charged', async ({
    assert,
  }) => {
    const api = await startApiStandIn((request) =>
      request.method === 'GET'
        ? {
            status: 200,
            body: { id: 'A 17', status: 'shipped', fields: request.query.get('fields') },
          }
        : { status: 201, body: { saved: true } }
    )
    try {
      const who = await owner()
      const before = await db.from('users').where('id', who.user.id).select('ai_credits').first()
      const creditsBefore = Number(before.ai_credits)
      groq.reply(
        {
          toolCalls: [
            { name: 'price', arguments: { unitPrice: 4, quantity: 3 } },
            { name: 'getOrder', arguments: { orderId: 'A 17', fields: 'status' } },
            { name: 'addNote', arguments: { orderId: 'A 17', body: { text: 'asked by bot' } } },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 30 },
        },
        {
          content: 'Order A 17 is shipped; 3 items cost 12.',
          usage: { prompt_tokens: 200, completion_tokens: 20 },
        }
      )
      const out = await runAgentBlock(
        {
          ...baseOptions(groq.baseUrl),
          queryPrompt: 'You answer about orders for {{Question}}',
          customToolEnabled: true,
          customTool: [priceTool],
          apiConfigEnabled: true,
          apiConfig: [
            {
              name: 'getOrder',
              method: 'GET',
              description: 'Reads an order',
              url: `${api.url}/orders/{orderId}`,
              headers: '{"x-api-key": "k-123"}',
              params: [{ name: 'orderId', type: 'string', description: 'The order id' }],
              queryParams: [{ name: 'fields', type: 'string' }],
            },
            {
              name: 'addNote',
              method: 'POST',
              description: 'Adds a note to an order',
              url: `${api.url}/orders/{orderId}/notes`,
              headers: '{}',
              params: [{ name: 'orderId', type: 'string' }],
              bodySchema: '{"type":"object","properties":{"text":{"type":"string"}}}',
            },
          ],
        },
        who
      )
      assert.deepEqual(
        out.logs.filter((log) => log.status === 'error'),
        []
      )
      assert.deepEqual(out.variablesSet, [
        { id: 'v-answer', value: 'Order A 17 is shipped; 3 items cost 12.' },
        { id: 'v-tokens', value: 370 },
      ])

      // What the model was asked.
      assert.lengthOf(groq.requests, 2)
      const first = groq.requests[0]
      assert.equal(first.path, '/openai/v1/chat/completions')
      assert.equal(first.headers.authorization, `Bearer ${API_KEY}`)
      assert.equal(first.body.model, MODEL)
      assert.strictEqual(first.body.temperature, 0)
      assert.deepEqual(first.body.messages, [
        {
          role: 'system',
          content: 'You answer about orders for Where is order A 17 and what do 3 items cost?',
        },
        { role: 'user', content: 'Where is order A 17 and what do 3 items cost?' },
      ])
      const tools = Object.fromEntries(
        first.body.tools.map((tool: any) => [tool.function.name, tool.function])
      )
      assert.deepEqual(Object.keys(tools), ['price', 'getOrder', 'addNote'])
      assert.deepEqual(tools.price.parameters, {
        type: 'object',
        properties: {
          unitPrice: { type: 'number', description: 'Price of one item' },
          quantity: { type: 'number' },
        },
        required: ['unitPrice', 'quantity'],
      })
      assert.deepEqual(tools.getOrder.parameters, {
        type: 'object',
        properties: {
          orderId: { type: 'string', description: 'The order id' },
          fields: { type: 'string' },
        },
        required: ['orderId'],
      })
      assert.deepEqual(tools.addNote.parameters.properties.body, {
        type: 'object',
        properties: { text: { type: 'string' } },
      })

      // What the APIs received: {param} substituted (encoded), query string, headers, body.
      assert.lengthOf(api.requests, 2)
      const [get, post] = api.requests
      assert.equal(get.method, 'GET')
      assert.equal(get.path, '/orders/A%2017')
      assert.equal(get.query.get('fields'), 'status')
      assert.equal(get.headers['x-api-key'], 'k-123')
      assert.isUndefined(get.body)
      assert.equal(post.method, 'POST')
      assert.equal(post.path, '/orders/A%2017/notes')
      assert.equal(post.headers['content-type'], 'application/json')
      assert.deepEqual(post.body, { text: 'asked by bot' })

      // The tool answers went back to the model, each with its call id.
      const second = groq.requests[1].body.messages
      assert.equal(second[2].role, 'assistant')
      assert.lengthOf(second[2].tool_calls, 3)
      assert.deepEqual(
        second.slice(3).map((m: any) => [m.role, m.tool_call_id, JSON.parse(m.content)]),
        [
          ['tool', second[2].tool_calls[0].id, { total: 12 }],
          ['tool', second[2].tool_calls[1].id, { id: 'A 17', status: 'shipped', fields: 'status' }],
          ['tool', second[2].tool_calls[2].id, { saved: true }],
        ]
      )
      const info = out.logs.find((log) => log.status === 'info')
      assert.equal(info?.description, 'The agent called 3 tool(s)')

      // One usage row per model call, deducted from the owner's credits to 9 decimals.
      const rows = await AiUsage.query().where('accountId', who.user.id).orderBy('id')
      assert.deepEqual(
        rows.map((row) => [row.model, row.inputTokens, row.outputTokens, row.source]),
        [
          [MODEL, 120, 30, 'llm-agent'],
          [MODEL, 200, 20, 'llm-agent'],
        ]
      )
      const price = (await priceFor(MODEL))!
      assert.equal(price.model, MODEL)
      const expected =
        creditsCost({ inputTokens: 120, outputTokens: 30 }, price) +
        creditsCost({ inputTokens: 200, outputTokens: 20 }, price)
      const after = await db.from('users').where('id', who.user.id).select('ai_credits').first()
      assert.closeTo(Number(after.ai_credits), creditsBefore - expected, 1e-9)
      assert.isAbove(expected, 0)
    } finally {
      await api.close()
    }
  })

  test("a tool's code error and an API failure go back to the model as text", async ({
    assert,
  }) => {
    const api = await startApiStandIn(() => ({ status: 503, body: { message: 'down' } }))
    try {
      const who = await owner()
      groq.reply(
        {
          toolCalls: [
            { name: 'broken', arguments: { n: 2 } },
            { name: 'getOrder', arguments: { orderId: '9' } },
            { name: 'nope', arguments: {} },
          ],
        },
        { content: 'Sorry, the tools failed.' }
      )
      const out = await runAgentBlock(
        {
          ...baseOptions(groq.baseUrl),
          customToolEnabled: true,
          customTool: [
            {
              name: 'broken',
              multiVariable: [{ inputVariable: 'n', inputType: 'number' }],
              functionCode: "if (n > 1) throw new RangeError('n is too big: ' + n); return n",
            },
          ],
          apiConfigEnabled: true,
          apiConfig: [
            {
              name: 'getOrder',
              method: 'GET',
              url: `${api.url}/orders/{orderId}`,
              params: [{ name: 'orderId' }],
            },
          ],
        },
        who
      )
      assert.deepEqual(
        out.logs.filter((log) => log.status === 'error'),
        []
      )
      const toolMessages = groq.requests[1].body.messages.filter((m: any) => m.role === 'tool')
      assert.deepEqual(
        toolMessages.map((m: any) => m.content),
        [
          'RangeError: n is too big: 2',
          'Error: the API answered 503: {"message":"down"}',
          'Error: there is no tool named "nope"',
        ]
      )
      assert.equal(api.requests[0].path, '/orders/9')
      // The default system prompt.
      assert.deepEqual(groq.requests[0].body.messages[0], {
        role: 'system',
        content: 'You are a helpful AI assistant.',
      })
      assert.deepEqual(out.variablesSet[0], { id: 'v-answer', value: 'Sorry, the tools failed.' })
    } finally {
      await api.close()
    }
  })

  test("any agent but groq logs 'Unsupported LLM specified'; no key, no call", async ({
    assert,
  }) => {
    const who = await owner()
    const unsupported = await runAgentBlock({ ...baseOptions(groq.baseUrl), agent: 'openai' }, who)
    assert.deepEqual(
      unsupported.logs.map((log) => [log.status, log.description]),
      [['error', 'Unsupported LLM specified']]
    )
    const none = await runAgentBlock({ ...baseOptions(groq.baseUrl), agent: undefined }, who)
    assert.equal(none.logs[0].description, 'Unsupported LLM specified')
    const noKey = await runAgentBlock({ ...baseOptions(groq.baseUrl), secretKey: '' }, who)
    assert.equal(noKey.logs[0].description, 'No API key provided')
    assert.lengthOf(groq.requests, 0)
    assert.lengthOf(await AiUsage.query().where('accountId', who.user.id), 0)
  })

  test("a tool without code stops the agent with 'Function code is undefined'", async ({
    assert,
  }) => {
    const who = await owner()
    groq.reply({ toolCalls: [{ name: 'empty', arguments: {} }] }, { content: 'never asked' })
    const out = await runAgentBlock(
      {
        ...baseOptions(groq.baseUrl),
        customToolEnabled: true,
        customTool: [{ name: 'empty', description: 'No code yet', functionCode: '  ' }],
      },
      who
    )
    assert.deepEqual(
      out.logs.map((log) => [log.status, log.description]),
      [['error', 'Function code is undefined']]
    )
    assert.lengthOf(groq.requests, 1)
    assert.equal(groq.pending(), 1)
    assert.deepEqual(out.variablesSet, [])
    // The call that was made is charged.
    assert.lengthOf(await AiUsage.query().where('accountId', who.user.id), 1)
  })

  test('the agent stops after 5 iterations (model calls)', async ({ assert }) => {
    const who = await owner()
    for (let i = 0; i < 6; i++) {
      groq.reply({ toolCalls: [{ name: 'price', arguments: { unitPrice: i, quantity: 2 } }] })
    }
    const out = await runAgentBlock(
      { ...baseOptions(groq.baseUrl), customToolEnabled: true, customTool: [priceTool] },
      who
    )
    assert.lengthOf(groq.requests, 5)
    assert.equal(groq.pending(), 1)
    assert.deepEqual(
      out.logs.filter((log) => log.status === 'error').map((log) => log.description),
      ['The agent stopped after 5 iterations without a final answer']
    )
    // Four rounds of tool answers were fed back before the fifth call.
    const last = groq.requests[4].body.messages
    assert.lengthOf(
      last.filter((m: any) => m.role === 'tool'),
      4
    )
    assert.lengthOf(await AiUsage.query().where('accountId', who.user.id), 5)
  })

  test('provider 5xx answers are retried twice; 4xx answers are not', async ({ assert }) => {
    const who = await owner()
    groq.reply(
      { status: 503, error: 'over capacity' },
      { status: 500, error: 'internal' },
      { content: 'Third time lucky' }
    )
    const retried = await runAgentBlock(baseOptions(groq.baseUrl), who)
    assert.lengthOf(groq.requests, 3)
    assert.deepEqual(retried.variablesSet[0], { id: 'v-answer', value: 'Third time lucky' })
    assert.deepEqual(
      retried.logs.filter((log) => log.status === 'error'),
      []
    )
    // Only the call that answered is charged.
    assert.lengthOf(await AiUsage.query().where('accountId', who.user.id), 1)

    groq.clear()
    groq.reply(
      { status: 502, error: 'bad gateway 1' },
      { status: 502, error: 'bad gateway 2' },
      { status: 502, error: 'bad gateway 3' },
      { content: 'not reached' }
    )
    const failed = await runAgentBlock(baseOptions(groq.baseUrl), who)
    assert.lengthOf(groq.requests, 3)
    assert.equal(
      failed.logs[0].description,
      'An API call error occured while generating the response'
    )
    assert.deepInclude(failed.logs[0].details as object, { status: 502, message: 'bad gateway 3' })
    assert.deepEqual(failed.variablesSet, [])

    assert.equal(groq.pending(), 1)
    groq.clear()
    groq.reply({ status: 429, error: 'rate limited' }, { content: 'not reached' })
    const limited = await runAgentBlock(baseOptions(groq.baseUrl), who)
    assert.lengthOf(groq.requests, 1)
    assert.deepInclude(limited.logs[0].details as object, { status: 429, message: 'rate limited' })
  })

  test('a cut connection is retried like a 5xx answer', async ({ assert }) => {
    const who = await owner()
    groq.reply({ drop: true }, { drop: true }, { content: 'Back online' })
    const out = await runAgentBlock(baseOptions(groq.baseUrl), who)
    assert.lengthOf(groq.requests, 3)
    assert.deepEqual(out.variablesSet[0], { id: 'v-answer', value: 'Back online' })

    groq.clear()
    groq.reply({ drop: true }, { drop: true }, { drop: true }, { content: 'not reached' })
    const failed = await runAgentBlock(baseOptions(groq.baseUrl), who)
    assert.lengthOf(groq.requests, 3)
    assert.deepEqual(
      failed.logs.map((log) => [log.status, log.description]),
      [['error', 'An unknown error occured while generating the response']]
    )
    assert.deepEqual(failed.variablesSet, [])
  })

  test('an owner without AI credits is refused before any call', async ({ assert }) => {
    const who = await owner()
    await db.from('users').where('id', who.user.id).update({ ai_credits: 0 })
    groq.reply({ content: 'never' })
    const out = await runAgentBlock(baseOptions(groq.baseUrl), who)
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.equal(out.logs[0].status, 'error')
    assert.lengthOf(groq.requests, 0)
  })
})
