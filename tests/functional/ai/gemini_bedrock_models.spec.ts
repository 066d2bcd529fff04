import { test } from '@japa/runner'
import AiUsage from '#models/ai_usage'
import { pluginRegistry } from '#services/plugin_registry'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { agentNodeOf, agentWorkflow } from '#tests/agent_workflows'
import { startGeminiStandIn } from '#tests/stand_ins/gemini'
import { startBedrockStandIn } from '#tests/stand_ins/bedrock'

/**
 * Gemini and Amazon Bedrock as the Model node of a workflow LLM agent, run by the real
 * executor against stand-ins of their APIs: the agent's tool loop goes through
 * generateContent / Converse (tool calls and their answers translated both ways), every
 * model call is charged to the owner's AI credits, and the node's settings reach the API.
 */

const GEMINI_KEY = 'AIza-test-key'
const AWS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-1',
  region: 'eu-west-3',
}

function agentWithModel(model: {
  type: string
  credentials: Record<string, unknown>
  options: Record<string, unknown>
}) {
  return agentWorkflow({ model, tools: [DOUBLE_TOOL] })
}

const DOUBLE_TOOL = {
  type: 'custom-tool',
  options: {
    name: 'double',
    description: 'Doubles a number',
    multiVariable: [{ inputVariable: 'n', inputType: 'number', inputDescription: 'A number' }],
    functionCode: 'return n * 2',
  },
}

test.group('Gemini Model node', () => {
  test('the agent calls tools through generateContent and is charged per call', async ({
    assert,
  }) => {
    const gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY })
    try {
      const { workflow, user } = await agentWithModel({
        type: 'gemini',
        credentials: { apiKey: GEMINI_KEY, baseUrl: gemini.baseUrl },
        options: { model: 'gemini-2.0-flash', temperature: 0.3, topP: 0.9, maxTokens: 300 },
      })
      gemini.reply(
        { calls: [{ name: 'double', args: { n: 21 } }], usage: { prompt: 40, candidates: 8 } },
        // A thinking model's thought summary is not part of the answer.
        { text: 'It is 42.', thought: 'The tool said 42.', usage: { prompt: 60, candidates: 4 } }
      )
      const runId = await createRun(workflow, 'manual', { question: 'Double 21' })
      const outcome = await executeRun(runId)
      const agent = await agentNodeOf(runId)
      assert.equal(outcome?.status, 'success', JSON.stringify(agent.logs))
      assert.deepEqual(agent.output, {
        output: 'It is 42.',
        toolCalls: [{ name: 'double', arguments: { n: 21 }, output: '42' }],
      })

      assert.lengthOf(gemini.requests, 2)
      const [first, second] = gemini.requests
      assert.equal(first.path, '/v1beta/models/gemini-2.0-flash:generateContent')
      assert.equal(first.headers['x-goog-api-key'], GEMINI_KEY)
      assert.deepEqual(first.body.systemInstruction, { parts: [{ text: 'You are a calculator.' }] })
      assert.deepEqual(first.body.contents, [{ role: 'user', parts: [{ text: 'Double 21' }] }])
      assert.deepEqual(first.body.generationConfig, {
        temperature: 0.3,
        topP: 0.9,
        maxOutputTokens: 300,
      })
      assert.equal(first.body.tools[0].functionDeclarations[0].name, 'double')
      assert.equal(first.body.tools[0].functionDeclarations[0].parameters.type, 'object')
      // The tool's answer goes back as a functionResponse after the model's functionCall.
      assert.deepEqual(second.body.contents.slice(1), [
        { role: 'model', parts: [{ functionCall: { name: 'double', args: { n: 21 } } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'double', response: { content: '42' } } }],
        },
      ])

      const usage = await AiUsage.query().where('accountId', user.id).orderBy('id')
      assert.deepEqual(
        usage.map((row) => [row.model, row.inputTokens, row.outputTokens]),
        [
          ['gemini-2.0-flash', 40, 8],
          ['gemini-2.0-flash', 60, 4],
        ]
      )
    } finally {
      await gemini.close()
    }
  })

  test("Gemini's refusals fail the agent node with the API's message", async ({ assert }) => {
    const gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY })
    try {
      const { workflow } = await agentWithModel({
        type: 'gemini',
        credentials: { apiKey: 'wrong', baseUrl: gemini.baseUrl },
        options: { model: 'gemini-2.0-flash' },
      })
      const runId = await createRun(workflow, 'manual', { question: 'Hi' })
      assert.equal((await executeRun(runId))?.status, 'error')
      const agent = await agentNodeOf(runId)
      assert.equal(
        agent.logs?.[0].description,
        'An API call error occured while generating the response'
      )
      assert.equal(
        (agent.logs?.[0].details as any)?.message,
        'API key not valid. Please pass a valid API key.'
      )
    } finally {
      await gemini.close()
    }
  })

  test('a blocked prompt says why', async ({ assert }) => {
    const gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY })
    try {
      const { workflow } = await agentWithModel({
        type: 'gemini',
        credentials: { apiKey: GEMINI_KEY, baseUrl: gemini.baseUrl },
        options: { model: 'gemini-2.0-flash' },
      })
      gemini.reply({ blocked: 'SAFETY' })
      const runId = await createRun(workflow, 'manual', { question: 'Hi' })
      assert.equal((await executeRun(runId))?.status, 'error')
      const agent = await agentNodeOf(runId)
      assert.equal((agent.logs?.[0].details as any)?.message, 'Gemini gave no answer (SAFETY)')
    } finally {
      await gemini.close()
    }
  })

  test('the models fetcher lists the models that generate content', async ({ assert }) => {
    const gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY, models: ['gemini-2.5-pro'] })
    try {
      const registry = await pluginRegistry()
      const fetchers = await registry.exportOf<any>('gemini', 'fetchers')
      const { endpointOf } = await import('../../../plugins/gemini/runner.js')
      const { createGuardedHttp } = await import('#plugins/guarded_http')
      assert.equal(endpointOf({ apiKey: ' k ' }).apiKey, 'k')
      const items = await fetchers.models({
        credentials: { apiKey: GEMINI_KEY, baseUrl: gemini.baseUrl },
        options: {},
        http: createGuardedHttp({ allowInternal: true }),
      })
      assert.deepEqual(items, [{ value: 'gemini-2.5-pro', label: 'gemini-2.5-pro' }])
    } finally {
      await gemini.close()
    }
  })
})

test.group('Amazon Bedrock Model node', () => {
  test('Converse calls are signed with SigV4, tools go through toolUse / toolResult', async ({
    assert,
  }) => {
    const bedrock = await startBedrockStandIn(AWS)
    try {
      const { workflow, user } = await agentWithModel({
        type: 'amazon-bedrock',
        credentials: { ...AWS, baseUrl: bedrock.baseUrl },
        options: { model: 'anthropic.claude-3-haiku-20240307-v1:0', maxTokens: 200, maxRetries: 0 },
      })
      bedrock.reply(
        {
          tools: [
            { name: 'double', input: { n: 5 } },
            { name: 'double', input: { n: 7 } },
          ],
          usage: { input: 30, output: 9 },
        },
        { text: '10 and 14.', usage: { input: 50, output: 5 } }
      )
      const runId = await createRun(workflow, 'manual', { question: 'Double 5 and 7' })
      const outcome = await executeRun(runId)
      const agent = await agentNodeOf(runId)
      assert.equal(outcome?.status, 'success', JSON.stringify(agent.logs))
      assert.equal((agent.output as any).output, '10 and 14.')
      assert.deepEqual(
        (agent.output as any).toolCalls.map((call: any) => call.output),
        ['10', '14']
      )

      assert.lengthOf(bedrock.requests, 2)
      const [first, second] = bedrock.requests
      // The model id is one path segment: its colon is sent percent-encoded, as the AWS SDK does.
      assert.equal(first.path, '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse')
      assert.match(
        String(first.headers.authorization),
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-3\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=/
      )
      assert.equal(first.headers['x-amz-security-token'], 'session-token-1')
      assert.deepEqual(first.body.system, [{ text: 'You are a calculator.' }])
      // The default temperature (0.7) applies when the node sets none.
      assert.deepEqual(first.body.inferenceConfig, { maxTokens: 200, temperature: 0.7 })
      assert.deepEqual(first.body.toolConfig.tools[0].toolSpec.name, 'double')
      // Both results share one user turn, each answering its toolUse id.
      assert.deepEqual(second.body.messages.slice(1), [
        {
          role: 'assistant',
          content: [
            { toolUse: { toolUseId: 'tooluse_1', name: 'double', input: { n: 5 } } },
            { toolUse: { toolUseId: 'tooluse_2', name: 'double', input: { n: 7 } } },
          ],
        },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'tooluse_1', content: [{ text: '10' }] } },
            { toolResult: { toolUseId: 'tooluse_2', content: [{ text: '14' }] } },
          ],
        },
      ])
      const usage = await AiUsage.query().where('accountId', user.id).orderBy('id')
      assert.deepEqual(
        usage.map((row) => [row.model, row.inputTokens, row.outputTokens]),
        [
          ['anthropic.claude-3-haiku-20240307-v1:0', 30, 9],
          ['anthropic.claude-3-haiku-20240307-v1:0', 50, 5],
        ]
      )
    } finally {
      await bedrock.close()
    }
  })

  test('a wrong secret key is refused by the signature check', async ({ assert }) => {
    const bedrock = await startBedrockStandIn(AWS)
    try {
      const { workflow } = await agentWithModel({
        type: 'amazon-bedrock',
        credentials: { ...AWS, secretAccessKey: 'not-the-secret', baseUrl: bedrock.baseUrl },
        options: { model: 'amazon.nova-lite-v1:0', maxRetries: 0 },
      })
      const runId = await createRun(workflow, 'manual', { question: 'Hi' })
      assert.equal((await executeRun(runId))?.status, 'error')
      const agent = await agentNodeOf(runId)
      assert.equal(
        (agent.logs?.[0].details as any)?.message,
        'The request signature we calculated does not match the signature you provided.'
      )
    } finally {
      await bedrock.close()
    }
  })

  test('maxRetries: a 5xx answer is tried again that many times', async ({ assert }) => {
    const bedrock = await startBedrockStandIn(AWS)
    try {
      const { workflow } = await agentWithModel({
        type: 'amazon-bedrock',
        credentials: { ...AWS, baseUrl: bedrock.baseUrl },
        options: { model: 'amazon.nova-lite-v1:0', maxRetries: 1 },
      })
      bedrock.reply(
        { status: 503, message: 'Service unavailable' },
        { status: 503, message: 'Service unavailable' },
        { text: 'never reached' }
      )
      const runId = await createRun(workflow, 'manual', { question: 'Hi' })
      assert.equal((await executeRun(runId))?.status, 'error')
      // One call and one retry, then the failure is the node's.
      assert.lengthOf(bedrock.requests, 2)
      const agent = await agentNodeOf(runId)
      assert.equal((agent.logs?.[0].details as any)?.status, 503)
    } finally {
      await bedrock.close()
    }
  })
})
