import { test } from '@japa/runner'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { agentNodeOf, agentWorkflow, type AttachedSpec } from '#tests/agent_workflows'
import { startGeminiStandIn } from '#tests/stand_ins/gemini'
import { startSearchStandIn } from '#tests/stand_ins/search_apis'
import { startMcpServer } from '#tests/stand_ins/mcp_server'

/**
 * The Web search and MCP client Tool nodes plugged into an LLM agent (a Gemini Model node
 * against its stand-in), run by the real executor: the tools the model is offered, the
 * requests the search APIs and a real MCP server (the official SDK's) receive, and what
 * goes back to the model.
 */

const GEMINI_KEY = 'AIza-tools'
const SEARCH_KEY = 'search-key-1'
const MCP_TOKEN = 'mcp-token-1'

type Gemini = Awaited<ReturnType<typeof startGeminiStandIn>>

function gemini(standIn: Gemini): AttachedSpec {
  return {
    type: 'gemini',
    credentials: { apiKey: GEMINI_KEY, baseUrl: standIn.baseUrl },
    options: { model: 'gemini-2.0-flash' },
  }
}

/** What the model was told each tool answered (the functionResponse parts of its last call). */
function toolAnswers(standIn: Gemini) {
  const last = standIn.requests.at(-1)!.body
  return last.contents
    .flatMap((content: any) => content.parts)
    .filter((part: any) => part.functionResponse)
    .map((part: any) => [part.functionResponse.name, part.functionResponse.response.content])
}

async function runAgent(
  workflow: Awaited<ReturnType<typeof agentWorkflow>>['workflow'],
  question: string
) {
  const runId = await createRun(workflow, 'manual', { question })
  const outcome = await executeRun(runId)
  return { status: outcome?.status, agent: await agentNodeOf(runId) }
}

test.group('Web search tool node', (group) => {
  let model: Gemini
  let search: Awaited<ReturnType<typeof startSearchStandIn>>
  group.each.setup(async () => {
    model = await startGeminiStandIn({ apiKey: GEMINI_KEY })
    search = await startSearchStandIn({ apiKey: SEARCH_KEY })
    return async () => {
      await model.close()
      await search.close()
    }
  })

  for (const provider of ['tavily', 'brave', 'serper'] as const) {
    test(`${provider}: the model searches and reads titles, links and snippets`, async ({
      assert,
    }) => {
      const { workflow } = await agentWorkflow({
        model: gemini(model),
        tools: [
          {
            type: 'web-search',
            credentials: { provider, apiKey: SEARCH_KEY, baseUrl: search.baseUrl },
            options: { name: 'web_search', description: 'Searches the web', maxResults: 2 },
          },
        ],
      })
      model.reply(
        { calls: [{ name: 'web_search', args: { query: 'flowcraft release' } }] },
        { text: 'Version 2.0 is out.' }
      )
      const { status, agent } = await runAgent(workflow, 'What is new in Flowcraft?')
      assert.equal(status, 'success', JSON.stringify(agent.logs))
      assert.equal((agent.output as any).output, 'Version 2.0 is out.')

      const declared = model.requests[0].body.tools[0].functionDeclarations
      assert.deepEqual(declared, [
        {
          name: 'web_search',
          description: 'Searches the web',
          parameters: {
            type: 'object',
            properties: { query: { type: 'string', description: 'What to search for' } },
            required: ['query'],
          },
        },
      ])
      assert.deepEqual(toolAnswers(model), [
        [
          'web_search',
          JSON.stringify([
            {
              title: 'Flowcraft 2.0 released',
              url: 'https://news.example/flowcraft',
              snippet: 'The release adds knowledge stores.',
            },
            {
              title: 'Flowcraft docs',
              url: 'https://docs.example/flowcraft',
              snippet: 'How to build a chatbot.',
            },
          ]),
        ],
      ])

      assert.lengthOf(search.requests, 1)
      const request = search.requests[0]
      if (provider === 'tavily') {
        assert.equal(request.method, 'POST')
        assert.equal(request.headers.authorization, `Bearer ${SEARCH_KEY}`)
        assert.deepEqual(request.body, {
          query: 'flowcraft release',
          max_results: 2,
          search_depth: 'basic',
        })
      } else if (provider === 'brave') {
        assert.equal(request.method, 'GET')
        assert.equal(request.path, '/res/v1/web/search')
        assert.equal(request.headers['x-subscription-token'], SEARCH_KEY)
      } else {
        assert.equal(request.headers['x-api-key'], SEARCH_KEY)
        assert.deepEqual(request.body, { q: 'flowcraft release', num: 2 })
      }
    })
  }

  test("a refused key goes back to the model as the API's error; the agent answers anyway", async ({
    assert,
  }) => {
    const { workflow } = await agentWorkflow({
      model: gemini(model),
      tools: [
        {
          type: 'web-search',
          credentials: { provider: 'serper', apiKey: 'wrong', baseUrl: search.baseUrl },
          options: { name: 'web_search' },
        },
      ],
    })
    model.reply(
      { calls: [{ name: 'web_search', args: { query: 'x' } }] },
      { text: 'I could not search.' }
    )
    const { status, agent } = await runAgent(workflow, 'Search x')
    assert.equal(status, 'success')
    assert.deepEqual(toolAnswers(model), [
      ['web_search', 'Error: the search API answered 403: Unauthorized.'],
    ])
    assert.equal(
      (agent.output as any).toolCalls[0].output,
      'Error: the search API answered 403: Unauthorized.'
    )
  })
})

test.group('MCP client tool node', (group) => {
  let model: Gemini
  let mcp: Awaited<ReturnType<typeof startMcpServer>>
  group.each.setup(async () => {
    model = await startGeminiStandIn({ apiKey: GEMINI_KEY })
    mcp = await startMcpServer({ token: MCP_TOKEN })
    return async () => {
      await model.close()
      await mcp.close()
    }
  })

  const mcpTool = (options: Record<string, unknown> = {}, token = MCP_TOKEN): AttachedSpec => ({
    type: 'mcp-tool',
    credentials: { bearerToken: token, headers: [{ key: 'x-team', value: 'support' }] },
    options: { serverUrl: mcp.url, ...options },
  })

  test("the server's tools are offered to the model and called over streamable HTTP", async ({
    assert,
  }) => {
    const { workflow } = await agentWorkflow({ model: gemini(model), tools: [mcpTool()] })
    model.reply(
      {
        calls: [
          { name: 'add', args: { a: 2, b: 3 } },
          { name: 'weather', args: { city: 'Paris' } },
        ],
      },
      { calls: [{ name: 'fail', args: {} }] },
      { text: '5, and sunny in Paris.' }
    )
    const { status, agent } = await runAgent(workflow, 'Add 2 and 3; weather in Paris?')
    assert.equal(status, 'success', JSON.stringify(agent.logs))
    assert.equal((agent.output as any).output, '5, and sunny in Paris.')
    assert.deepEqual(
      (agent.output as any).toolCalls.map((call: any) => [call.name, call.output]),
      [
        ['add', '5'],
        ['weather', 'Sunny in Paris, 21°C'],
        ['fail', 'Error: the backend is down'],
      ]
    )

    // The MCP tools' schemas reach the model (in Gemini's schema subset). Looked up in the
    // first request that carries tools: once, in the sharded PostgreSQL run, the first
    // recorded request had none, and the file passed alone (the session note of 2026-11-29).
    const declared = model.requests.find((request) => request.body?.tools)!.body.tools[0]
      .functionDeclarations
    assert.deepEqual(
      declared.map((declaration: any) => declaration.name),
      ['add', 'weather', 'fail']
    )
    assert.deepEqual(declared[0].parameters, {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    })
    assert.equal(declared[1].parameters.properties.city.description, 'A city name')

    // A session per use: initialize, then the listing or the call; every request authenticated.
    const rpcs = mcp.requests.filter((request) => request.rpc).map((request) => request.rpc)
    assert.deepEqual(rpcs, [
      'initialize',
      'notifications/initialized',
      'tools/list',
      ...['tools/call', 'tools/call', 'tools/call'].flatMap((call) => [
        'initialize',
        'notifications/initialized',
        call,
      ]),
    ])
    assert.isTrue(mcp.requests.every((request) => request.authorization === `Bearer ${MCP_TOKEN}`))
    assert.equal(mcp.openSessions(), 0, 'every session is ended (DELETE)')
    assert.isAbove(mcp.requests.filter((request) => request.method === 'DELETE').length, 3)
  })

  test('"Only these tools" offers only the named tools; an unknown name fails the agent', async ({
    assert,
  }) => {
    const { workflow } = await agentWorkflow({
      model: gemini(model),
      tools: [mcpTool({ include: 'weather' })],
    })
    model.reply({ text: 'Fine.' })
    const { status } = await runAgent(workflow, 'Hi')
    assert.equal(status, 'success')
    assert.deepEqual(
      model.requests[0].body.tools[0].functionDeclarations.map(
        (declaration: any) => declaration.name
      ),
      ['weather']
    )

    const unknown = await agentWorkflow({
      model: gemini(model),
      tools: [mcpTool({ include: 'weather, nope' })],
    })
    const failed = await runAgent(unknown.workflow, 'Hi')
    assert.equal(failed.status, 'error')
    assert.equal(
      failed.agent.logs?.[0].description,
      `MCP client: 127.0.0.1:${new URL(mcp.url).port} has no tool named "nope"`
    )
  })

  test('a refused token or an unreachable server fails the agent node with the reason', async ({
    assert,
  }) => {
    const refused = await agentWorkflow({ model: gemini(model), tools: [mcpTool({}, 'wrong')] })
    const result = await runAgent(refused.workflow, 'Hi')
    assert.equal(result.status, 'error')
    assert.equal(
      result.agent.logs?.[0].description,
      `MCP client: could not list the tools of 127.0.0.1:${new URL(mcp.url).port}: the server refused the credentials (401)`
    )

    const gone = await agentWorkflow({
      model: gemini(model),
      tools: [
        { type: 'mcp-tool', options: { serverUrl: 'http://127.0.0.1:9/mcp', timeout: 2000 } },
      ],
    })
    const unreachable = await runAgent(gone.workflow, 'Hi')
    assert.equal(unreachable.status, 'error')
    assert.match(
      unreachable.agent.logs?.[0].description ?? '',
      /^MCP client: could not list the tools of 127\.0\.0\.1:9: /
    )
    assert.lengthOf(model.requests, 0)
  })
})
