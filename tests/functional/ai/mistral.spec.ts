import { test } from '@japa/runner'
import { streamReply } from '#plugins/define_plugin'
import { streamErrorOf } from '#sdk/ai'
import { TestCredential } from '#actions/credentials/test_credential'
import Credential from '#models/credential'
import type { VariableState } from '#services/runner_context'
import { startMistralStandIn } from '#tests/stand_ins/mistral'
import { messageText } from '#engine/bot/engine'
import {
  apiOwner,
  askOnce,
  botContext,
  descriptions,
  oneBlockBot,
  publishBot,
  resultLogs,
  newOwner,
  runBlock,
  runFetcher,
  runStreamer,
  saveCredentials,
  usagesOf,
} from './provider_fixtures.js'

/**
 * The Mistral block's two actions, its streamer and models fetcher, through the registry
 * and the real runner context, against the Mistral stand-in (which refuses fields Mistral
 * does not know, so a stray temperature or stream_options fails the test).
 */

const KEY = 'mistral-stand-in-key'
const MODEL = 'mistral-small-latest'

const VARIABLES: VariableState[] = [
  { id: 'vAnswer', name: 'Answer' },
  { id: 'vDialogue', name: 'Dialogue', value: ['Salut', 'Bonjour ! Que puis-je faire ?'] },
  { id: 'vCity', name: 'City', value: 'Lyon' },
  { id: 'vMessage', name: 'Message', value: 'I am Ada, 36, on the Pro plan, subscribed.' },
  { id: 'vName', name: 'Name' },
  { id: 'vAge', name: 'Age' },
  { id: 'vSubscribed', name: 'Subscribed' },
  { id: 'vPlan', name: 'Plan' },
  { id: 'vNickname', name: 'Nickname' },
]

type StandInOptions = Parameters<typeof startMistralStandIn>[0]

async function setup(
  cleanup: (fn: () => Promise<void> | void) => void,
  options: Partial<StandInOptions> = {}
) {
  const standIn = await startMistralStandIn({ apiKey: KEY, ...options })
  cleanup(() => standIn.close())
  const owner = await newOwner()
  const credentialsId = await saveCredentials(owner, 'mistral', {
    apiKey: KEY,
    baseUrl: standIn.baseUrl,
  })
  return { standIn, owner, credentialsId }
}

function chatOptions(credentialsId: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    action: 'Create chat completion',
    credentialsId,
    model: MODEL,
    messages: [
      { role: 'system', content: 'Réponds en français.' },
      { role: 'Dialogue', dialogueVariableId: 'vDialogue', startsBy: 'user' },
      { role: 'user', content: 'Quel temps à {{City}} ?' },
    ],
    responseMapping: [{ id: 'm1', item: 'Message content', variableId: 'vAnswer' }],
    ...extra,
  }
}

const EXTRACT = [
  { id: 'x1', variableId: 'vName', type: 'string', description: 'First name' },
  { id: 'x2', variableId: 'vAge', type: 'number' },
  { id: 'x3', variableId: 'vSubscribed', type: 'boolean' },
  { id: 'x4', variableId: 'vPlan', type: 'enum', values: [{ value: 'Free' }, { value: 'Pro' }] },
  { id: 'x5', variableId: 'vNickname', type: 'string', isRequired: false },
]

function extractOptions(credentialsId: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    action: 'Generate variables',
    credentialsId,
    model: MODEL,
    prompt: 'Read this: {{Message}}',
    variablesToExtract: EXTRACT,
    ...extra,
  }
}

test.group('Mistral: Create chat completion', () => {
  test('sends the conversation without temperature, maps the answer, charges credits', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'mistral', chatOptions(credentialsId), VARIABLES)
    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Bonjour! Quel temps à Lyon ?')
    const [request] = standIn.requests
    assert.equal(request.path, '/v1/chat/completions')
    assert.equal(request.headers.authorization, `Bearer ${KEY}`)
    assert.deepEqual(request.body, {
      model: MODEL,
      messages: [
        { role: 'system', content: 'Réponds en français.' },
        { role: 'user', content: 'Salut' },
        { role: 'assistant', content: 'Bonjour ! Que puis-je faire ?' },
        { role: 'user', content: 'Quel temps à Lyon ?' },
      ],
      stream: false,
    })
    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.include(usages[0].serialize(), {
      model: MODEL,
      source: 'mistral',
      inputTokens: 40,
      outputTokens: 10,
    })
    // mistral-small-latest: 5,000,000 input and 1,666,667 output tokens per credit.
    assert.equal(usages[0].creditsUsed, 0.000014)
  })

  test('no key, no model: the logs and nothing sent', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const noKey = await runBlock(owner, 'mistral', chatOptions(undefined), VARIABLES)
    assert.deepEqual(descriptions(noKey.logs), ['No API key provided'])
    const noModel = await runBlock(
      owner,
      'mistral',
      chatOptions(credentialsId, { model: '' }),
      VARIABLES
    )
    assert.deepEqual(descriptions(noModel.logs), ['No model selected'])
    assert.lengthOf(standIn.requests, 0)
  })

  test('a provider error is logged with its details and the flow goes on', async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup, { failWith: 503 })
    const out = await runBlock(owner, 'mistral', chatOptions(credentialsId), VARIABLES)
    assert.isUndefined(out.result)
    assert.deepEqual(descriptions(out.logs), [
      'An API call error occured while generating the response',
    ])
    assert.include(out.logs[0].details as object, { status: 503, message: 'Service unavailable' })
    assert.deepEqual(out.variablesSet, [])
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('tools: a tool call is answered from the sandbox and the model called again', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: (request) => {
        const last = request.messages.at(-1)!
        if (last.role === 'tool') return { content: `Météo : ${last.content}` }
        return {
          tool_calls: [
            {
              id: 'call00001',
              type: 'function',
              function: { name: 'getWeather', arguments: '{"city":"Lyon"}' },
            },
          ],
        }
      },
    })
    const out = await runBlock(
      owner,
      'mistral',
      chatOptions(credentialsId, {
        tools: [
          {
            name: 'getWeather',
            parameters: [{ name: 'city', type: 'string' }],
            code: 'return city + ": 21°C"',
          },
        ],
      }),
      VARIABLES
    )
    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Météo : Lyon: 21°C')
    const [first, second] = standIn.chatBodies()
    assert.deepEqual(first.tools, [
      {
        type: 'function',
        function: {
          name: 'getWeather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
      },
    ])
    assert.deepInclude(second.messages.at(-1), {
      role: 'tool',
      tool_call_id: 'call00001',
      content: 'Lyon: 21°C',
    })
    assert.lengthOf(await usagesOf(owner), 2)
  })

  test('streaming: a stream pause, then the chunks of the stand-in with the usage charged', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: () => ({
        content: 'Il fait beau.',
        usage: { prompt_tokens: 50, completion_tokens: 5 },
      }),
      chunks: () => ['Il ', 'fait ', 'beau.'],
    })
    const options = chatOptions(credentialsId)
    const paused = await runBlock(
      owner,
      'mistral',
      options,
      VARIABLES,
      botContext('mistral', 'vAnswer')
    )
    assert.deepEqual(paused.result, streamReply('vAnswer'))
    assert.lengthOf(standIn.requests, 0)

    const streamed = await runStreamer(owner, 'mistral', options, VARIABLES)
    assert.isUndefined(streamed.error)
    assert.deepEqual(streamed.chunks, ['Il ', 'fait ', 'beau.'])
    assert.equal(standIn.requests[0].headers.authorization, `Bearer ${KEY}`)
    assert.isTrue(standIn.requests[0].body.stream)
    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.include(usages[0].serialize(), { inputTokens: 50, outputTokens: 5 })
  })

  test("stream errors: 401 'API key missing', 400 'model not found', else the fallback text", async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const noKey = await runStreamer(owner, 'mistral', chatOptions(undefined), VARIABLES)
    assert.deepEqual(streamErrorOf(noKey.error), { status: 401, message: 'API key missing' })
    const unknownModel = await runStreamer(
      owner,
      'mistral',
      chatOptions(credentialsId, { model: 'mistral-huge' }),
      VARIABLES
    )
    assert.deepEqual(streamErrorOf(unknownModel.error), { status: 400, message: 'model not found' })
    assert.lengthOf(await usagesOf(owner), 0)

    const failing = await setup(cleanup, { failWith: 503 })
    const failed = await runStreamer(
      failing.owner,
      'mistral',
      chatOptions(failing.credentialsId),
      VARIABLES
    )
    assert.deepEqual(streamErrorOf(failed.error), {
      status: 503,
      message: 'An error occured while generating the stream',
    })
  })
})

test.group('Mistral: Generate variables', () => {
  test('asks for a JSON object with the schema, checks it, sets the variables', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: () => ({
        content: JSON.stringify({ Name: 'Ada', Age: '36', Subscribed: true, Plan: 'Pro' }),
      }),
    })
    const out = await runBlock(owner, 'mistral', extractOptions(credentialsId), VARIABLES)
    assert.deepEqual(out.logs, [])
    assert.sameDeepMembers(out.variablesSet, [
      { id: 'vName', value: 'Ada' },
      { id: 'vAge', value: 36 },
      { id: 'vSubscribed', value: true },
      { id: 'vPlan', value: 'Pro' },
    ])
    const [body] = standIn.chatBodies()
    assert.deepEqual(body.response_format, { type: 'json_object' })
    assert.deepEqual(body.messages[1], {
      role: 'user',
      content: 'Read this: I am Ada, 36, on the Pro plan, subscribed.',
    })
    const schemaLine = (body.messages[0].content as string)
      .split('\n')
      .find((line) => line.startsWith('{'))!
    assert.deepEqual(JSON.parse(schemaLine), {
      type: 'object',
      properties: {
        Name: { type: 'string', description: 'First name' },
        Age: { type: 'number' },
        Subscribed: { type: 'boolean' },
        Plan: { type: 'string', enum: ['Free', 'Pro'] },
        Nickname: { type: 'string' },
      },
      required: ['Name', 'Age', 'Subscribed', 'Plan'],
      additionalProperties: false,
    })
    assert.lengthOf(await usagesOf(owner), 1)
  })

  test("'No prompt provided' and 'Could not parse variables to extract', nothing sent", async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const noPrompt = await runBlock(
      owner,
      'mistral',
      extractOptions(credentialsId, { prompt: '  ' }),
      VARIABLES
    )
    assert.deepEqual(descriptions(noPrompt.logs), ['No prompt provided'])

    const enumWithoutValues = await runBlock(
      owner,
      'mistral',
      extractOptions(credentialsId, {
        variablesToExtract: [{ variableId: 'vPlan', type: 'enum', values: [{ value: ' ' }] }],
      }),
      VARIABLES
    )
    assert.deepEqual(descriptions(enumWithoutValues.logs), ['Could not parse variables to extract'])

    const deletedVariable = await runBlock(
      owner,
      'mistral',
      extractOptions(credentialsId, {
        variablesToExtract: [...EXTRACT, { variableId: 'vGone', type: 'string' }],
      }),
      VARIABLES
    )
    assert.deepEqual(descriptions(deletedVariable.logs), ['Could not parse variables to extract'])

    const noModel = await runBlock(
      owner,
      'mistral',
      extractOptions(credentialsId, { model: '' }),
      VARIABLES
    )
    assert.deepEqual(descriptions(noModel.logs), ['No model selected'])
    assert.lengthOf(standIn.requests, 0)
  })

  test("an answer that breaks the schema is 'Generated object is not valid' and sets nothing", async ({
    assert,
    cleanup,
  }) => {
    const answers = [
      JSON.stringify({ Name: 'Ada', Age: 36, Subscribed: true, Plan: 'Gold' }),
      JSON.stringify({ Name: 'Ada', Age: 'thirty', Subscribed: true, Plan: 'Pro' }),
      JSON.stringify({ Age: 36, Subscribed: true, Plan: 'Pro' }),
      'Sure! Here is the JSON you asked for.',
    ]
    let call = 0
    const { owner, credentialsId } = await setup(cleanup, {
      respond: () => ({ content: answers[call++] }),
    })
    for (const answer of answers) {
      const out = await runBlock(owner, 'mistral', extractOptions(credentialsId), VARIABLES)
      assert.deepEqual(descriptions(out.logs), ['Generated object is not valid'], answer)
      assert.deepEqual(out.variablesSet, [], answer)
    }
    assert.lengthOf(await usagesOf(owner), 4)
  })

  test('a provider error is logged and the flow goes on', async ({ assert, cleanup }) => {
    const { owner, credentialsId } = await setup(cleanup, { failWith: 500 })
    const out = await runBlock(owner, 'mistral', extractOptions(credentialsId), VARIABLES)
    assert.deepEqual(descriptions(out.logs), [
      'An API call error occured while generating the response',
    ])
    assert.deepEqual(out.variablesSet, [])
  })
})

test.group('Mistral: models and credentials', () => {
  test('the models fetcher reads data[].id with the bearer key', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const models = await runFetcher(owner, 'mistral', 'models', { credentialsId })
    assert.deepEqual(
      models.map((model) => model.value),
      ['mistral-small-latest', 'mistral-large-latest', 'open-mistral-nemo']
    )
    assert.equal(standIn.requests[0].path, '/v1/models')
    assert.equal(standIn.requests[0].headers.authorization, `Bearer ${KEY}`)
  })

  test('the editor asks the fetcher endpoint: models, or the provider refusing the key', async ({
    assert,
    client,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const ask = (options: Record<string, unknown>) =>
      client
        .post('/api/plugins/mistral/fetchers/models')
        .loginAs(owner.user)
        .withCsrfToken()
        .json({ workspaceId: owner.workspace.id, options })
    const listed = await ask({ action: 'Generate variables', credentialsId })
    listed.assertStatus(200)
    assert.deepEqual(listed.body().items.at(0), {
      value: 'mistral-small-latest',
      label: 'mistral-small-latest',
    })

    const other = await startMistralStandIn({ apiKey: 'other' })
    cleanup(() => other.close())
    const wrongId = await saveCredentials(owner, 'mistral', { apiKey: KEY, baseUrl: other.baseUrl })
    const refused = await ask({ credentialsId: wrongId })
    refused.assertStatus(422)
    assert.include(JSON.stringify(refused.body()), 'Unauthorized')
  })

  test('the credential test', async ({ assert, cleanup }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const good = await new TestCredential().handle(
      owner.user,
      await Credential.findOrFail(credentialsId)
    )
    assert.deepEqual(good, { ok: true, message: 'Connected: 3 models available.' })
    const other = await startMistralStandIn({ apiKey: 'other' })
    cleanup(() => other.close())
    const wrongId = await saveCredentials(owner, 'mistral', { apiKey: KEY, baseUrl: other.baseUrl })
    const wrong = await new TestCredential().handle(
      owner.user,
      await Credential.findOrFail(wrongId)
    )
    assert.deepEqual(wrong, { ok: false, message: 'Unauthorized' })
  })
})

test.group('Mistral in a chat', () => {
  test('Generate variables fills the variables the next bubble shows; a bad answer is logged and the chat goes on', async ({
    assert,
    client,
    cleanup,
  }) => {
    const answers = [
      JSON.stringify({ Name: 'Ada', Age: 36 }),
      JSON.stringify({ Name: 'Ada', Age: 'old' }),
    ]
    let call = 0
    const standIn = await startMistralStandIn({
      apiKey: KEY,
      respond: () => ({ content: answers[call++] }),
    })
    cleanup(() => standIn.close())
    const owner = await apiOwner()
    const credentialsId = await saveCredentials(owner, 'mistral', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const block = {
      type: 'mistral',
      options: {
        action: 'Generate variables',
        credentialsId,
        model: MODEL,
        prompt: 'Extract from: {{Question}}',
        variablesToExtract: [
          { id: 'x1', variableId: 'v_name', type: 'string' },
          { id: 'x2', variableId: 'v_age', type: 'number' },
        ],
      },
    }
    const publicId = await publishBot(
      client,
      owner,
      oneBlockBot(block, 'Name: {{Name}}, age: {{Age}}', [
        { id: 'v_name', name: 'Name' },
        { id: 'v_age', name: 'Age' },
      ])
    )
    const good = await askOnce(client, publicId, 'I am Ada and I am 36')
    assert.deepEqual(good.reply.messages.map(messageText), ['Name: Ada, age: 36'])
    assert.equal(standIn.chatBodies()[0].messages[1].content, 'Extract from: I am Ada and I am 36')

    const bad = await askOnce(client, publicId, 'I am Ada')
    assert.deepEqual(bad.reply.messages.map(messageText), ['Name: , age: '])
    assert.deepInclude(await resultLogs(bad.resultId), {
      status: 'error',
      description: 'Generated object is not valid',
    })
  })
})
