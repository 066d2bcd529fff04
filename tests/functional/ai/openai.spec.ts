import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { streamErrorOf } from '#sdk/ai'
import { STAND_IN_USAGE, startOpenAiStandIn } from '#tests/stand_ins/openai'
import {
  VARIABLES,
  botContext,
  credentialsFor,
  descriptions,
  runBlock,
  usagesOf,
} from './openai_fixtures.js'
import {
  KEY,
  setup,
  chatOptions,
  streamerContext,
  collect,
  chatCalls,
} from '#tests/functional/ai/openai_setup'

/**
 * The OpenAI block's four actions, its streamer and its models fetcher, run through the
 * registry and the real runner context against the OpenAI stand-in, which checks each
 * request (key, body fields, multipart upload).
 */

test.group('OpenAI: Create chat completion', () => {
  test('sends messages with the Dialogue expanded and maps the answer and tokens', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const before = Number((await db.from('users').where('id', owner.user.id).first()).ai_credits)
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId))

    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Echo: Weather in Paris?')
    assert.equal(out.value('vTokens'), STAND_IN_USAGE.total_tokens)
    const [call] = chatCalls(standIn)
    assert.equal(call.headers.authorization, `Bearer ${KEY}`)
    assert.equal(call.json.model, 'gpt-4o-mini')
    assert.equal(call.json.temperature, 1)
    assert.isFalse(call.json.stream)
    assert.isUndefined(call.json.tools)
    assert.deepEqual(call.json.messages, [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'Tell me a joke' },
      { role: 'user', content: 'Weather in Paris?' },
    ])

    // Credits: one usage row with the provider's counts, its cost deducted.
    const [usage] = await usagesOf(owner)
    assert.equal(usage.model, 'gpt-4o-mini')
    assert.equal(usage.inputTokens, STAND_IN_USAGE.prompt_tokens)
    assert.equal(usage.outputTokens, STAND_IN_USAGE.completion_tokens)
    assert.equal(usage.source, 'openai')
    assert.isAbove(usage.creditsUsed, 0)
    const after = Number((await db.from('users').where('id', owner.user.id).first()).ai_credits)
    assert.approximately(before - after, usage.creditsUsed, 1e-9)
  })

  test('a temperature from a variable is sent as a number', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    await runBlock(owner, 'openai', chatOptions(credentialsId, { temperature: '{{Temp}}' }), {
      variables: [...VARIABLES, { id: 'vTemp', name: 'Temp', value: '0.3' }],
    })
    assert.equal(chatCalls(standIn)[0].json.temperature, 0.3)
  })

  test("a block's own baseUrl (imported) does not redirect the owner's key", async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const elsewhere = await startOpenAiStandIn({ apiKey: KEY })
    cleanup(() => elsewhere.close())
    const out = await runBlock(
      owner,
      'openai',
      chatOptions(credentialsId, { baseUrl: elsewhere.baseUrl, apiVersion: '2024-02-01' })
    )
    assert.equal(out.value('vAnswer'), 'Echo: Weather in Paris?')
    assert.lengthOf(chatCalls(standIn), 1)
    assert.lengthOf(elsewhere.requests, 0)
  })

  test('Azure-style credentials send api-version and the api-key header', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner } = await setup(cleanup)
    const credentialsId = await credentialsFor(owner, 'openai', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
      apiVersion: '2024-02-01',
    })
    await runBlock(owner, 'openai', chatOptions(credentialsId))
    const [call] = chatCalls(standIn)
    assert.equal(call.query.get('api-version'), '2024-02-01')
    assert.equal(call.headers['api-key'], KEY)
  })

  test('without an API key: "No API key provided", nothing is sent', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner } = await setup(cleanup)
    const out = await runBlock(owner, 'openai', chatOptions(undefined))
    assert.deepEqual(descriptions(out.logs), ['No API key provided'])
    assert.equal(out.logs[0].status, 'error')
    assert.lengthOf(standIn.requests, 0)
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('without a model: "No model selected", nothing is sent', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId, { model: ' ' }))
    assert.deepEqual(descriptions(out.logs), ['No model selected'])
    assert.lengthOf(standIn.requests, 0)
  })

  test('a provider error is logged with its details and the block ends normally', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    standIn.failWith(429, { error: { message: 'Rate limit reached', type: 'requests' } })
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId))
    assert.deepEqual(descriptions(out.logs), [
      'An API call error occured while generating the response',
    ])
    assert.deepInclude(out.logs[0].details as object, {
      status: 429,
      message: 'Rate limit reached',
    })
    assert.deepEqual(out.variablesSet, [])
    assert.isUndefined(out.aiCreditLimitExceeded)
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('a server that cannot be reached gives the unknown error', async ({ assert, cleanup }) => {
    const { standIn, owner } = await setup(cleanup)
    const credentialsId = await credentialsFor(owner, 'openai', {
      apiKey: KEY,
      baseUrl: `${standIn.origin}/nowhere-else`.replace(/:\d+/, ':1'),
    })
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId))
    assert.deepEqual(descriptions(out.logs), [
      'An unknown error occured while generating the response',
    ])
  })

  test('tools: the model calls a sandboxed function and answers with its result', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      toolArguments: { city: 'Lyon' },
    })
    const tools = [
      {
        name: 'getWeather',
        description: 'The weather of a city',
        parameters: [
          { name: 'city', type: 'string', required: true, description: 'City name' },
          { name: 'unit', type: 'enum', values: [{ value: 'C' }, { value: 'F' }], required: false },
          { name: 'ignored', type: 'enum', values: [] },
        ],
        code: 'return "Sunny in " + city',
      },
    ]
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId, { tools }))
    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Tool said: Sunny in Lyon')
    assert.equal(out.value('vTokens'), 2 * STAND_IN_USAGE.total_tokens)

    const [first, second] = chatCalls(standIn)
    assert.deepEqual(first.json.tools, [
      {
        type: 'function',
        function: {
          name: 'getWeather',
          description: 'The weather of a city',
          parameters: {
            type: 'object',
            properties: {
              city: { type: 'string', description: 'City name' },
              unit: { type: 'string', enum: ['C', 'F'] },
            },
            required: ['city'],
          },
        },
      },
    ])
    assert.deepEqual(second.json.messages.slice(-2), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'getWeather', arguments: '{"city":"Lyon"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny in Lyon' },
    ])
    assert.lengthOf(await usagesOf(owner), 2)
  })

  test('the tool loop stops after 10 rounds, each one charged', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, { toolCalls: 'always' })
    const tools = [{ name: 'again', parameters: [], code: 'return "more"' }]
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId, { tools }))
    assert.lengthOf(chatCalls(standIn), 10)
    assert.lengthOf(await usagesOf(owner), 10)
    assert.deepEqual(
      out.logs.map((log) => log.status),
      ['info']
    )
    assert.match(out.logs[0].description, /after 10 rounds/)
    assert.equal(out.value('vTokens'), 10 * STAND_IN_USAGE.total_tokens)
  })

  test('a tool without code is an error of the block, logged and the flow goes on', async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const tools = [{ name: 'noCode', parameters: [] }]
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId, { tools }))
    assert.deepEqual(descriptions(out.logs), [
      'An unknown error occured while generating the response',
    ])
    assert.equal((out.logs[0].details as any).message, 'Function code is undefined')
  })

  test('vision models get image parts for image URLs only (HEAD checks the type)', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const text = `What is on ${standIn.origin}/files/cat.png and ${standIn.origin}/files/page.html?`
    const messages = [{ role: 'user', content: text }]
    await runBlock(owner, 'openai', chatOptions(credentialsId, { model: 'gpt-4o', messages }))
    const heads = standIn.requests.filter((request) => request.method === 'HEAD')
    assert.sameMembers(
      heads.map((request) => request.path),
      ['/files/cat.png', '/files/page.html']
    )
    assert.deepEqual(chatCalls(standIn)[0].json.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text },
          { type: 'image_url', image_url: { url: `${standIn.origin}/files/cat.png` } },
        ],
      },
    ])

    // Not a vision model (gpt-4-turbo-preview is excluded): the text goes as it is.
    await runBlock(
      owner,
      'openai',
      chatOptions(credentialsId, { model: 'gpt-4-turbo-preview', messages })
    )
    assert.deepEqual(chatCalls(standIn)[1].json.messages, [{ role: 'user', content: text }])
  })

  test('no AI credits left: nothing is sent and the run reports the limit', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    await db.from('users').where('id', owner.user.id).update({ ai_credits: 0 })
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId))
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.equal(out.logs[0].status, 'error')
    assert.lengthOf(chatCalls(standIn), 0)
  })
})

test.group('OpenAI: streamed chat completion', () => {
  test('a client that streams to the answer variable gets a stream pause, no call', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'openai', chatOptions(credentialsId), {
      bot: botContext('vAnswer'),
    })
    assert.deepEqual(out.result, {
      clientSideActions: [{ type: 'stream', stream: true }],
      pause: true,
      saveReplyInVariableId: 'vAnswer',
    })
    assert.lengthOf(standIn.requests, 0)

    // Streaming to another variable: the plain path.
    const plain = await runBlock(owner, 'openai', chatOptions(credentialsId), {
      bot: botContext('vOther'),
    })
    assert.equal(plain.value('vAnswer'), 'Echo: Weather in Paris?')

    // A block with tools answers whole, its tools working, even for a streaming client.
    const tools = [{ name: 'lookup', parameters: [], code: 'return "found"' }]
    const whole = await runBlock(owner, 'openai', chatOptions(credentialsId, { tools }), {
      bot: botContext('vAnswer'),
    })
    assert.isUndefined((whole.result as any)?.pause)
    assert.equal(whole.value('vAnswer'), 'Tool said: found')
  })

  test('the streamer yields the text, asks for usage, records it and sets the tokens', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const tools = [{ name: 'unused', parameters: [], code: 'return 1' }]
    const { context, changes, streamer } = await streamerContext(
      owner,
      chatOptions(credentialsId, { tools })
    )
    const chunks = await collect(streamer(context))
    assert.isAbove(chunks.length, 1)
    assert.equal(chunks.join(''), 'Echo: Weather in Paris?')
    const [call] = chatCalls(standIn)
    assert.isTrue(call.json.stream)
    assert.deepEqual(call.json.stream_options, { include_usage: true })
    assert.equal(call.headers.accept, 'text/event-stream')
    // The streamer never sends tools (documented in the README).
    assert.isUndefined(call.json.tools)
    const [usage] = await usagesOf(owner)
    assert.equal(usage.inputTokens, STAND_IN_USAGE.prompt_tokens)
    assert.equal(usage.outputTokens, STAND_IN_USAGE.completion_tokens)
    assert.deepEqual(changes(), [{ id: 'vTokens', value: STAND_IN_USAGE.total_tokens }])
  })

  test('stream failures carry the statuses: 401 API key missing, 400 model not found', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const noKey = await streamerContext(owner, chatOptions(undefined))
    const keyError = await collect(noKey.streamer(noKey.context)).catch((error) => error)
    assert.deepEqual(streamErrorOf(keyError), { status: 401, message: 'API key missing' })

    const unknown = await streamerContext(
      owner,
      chatOptions(credentialsId, { model: 'missing-model' })
    )
    const modelError = await collect(unknown.streamer(unknown.context)).catch((error) => error)
    assert.deepEqual(streamErrorOf(modelError), { status: 400, message: 'model not found' })

    standIn.failWith(503, { error: { message: 'Overloaded' } })
    const failing = await streamerContext(owner, chatOptions(credentialsId))
    const providerError = await collect(failing.streamer(failing.context)).catch((e) => e)
    assert.deepEqual(streamErrorOf(providerError), { status: 503, message: 'Overloaded' })
    // Refused requests cost nothing.
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('a stream whose server cannot be reached answers 500 with the unknown error', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner } = await setup(cleanup)
    const credentialsId = await credentialsFor(owner, 'openai', {
      apiKey: KEY,
      baseUrl: `${standIn.origin}/nowhere-else`.replace(/:\d+/, ':1'),
    })
    const unreachable = await streamerContext(owner, chatOptions(credentialsId))
    const error = await collect(unreachable.streamer(unreachable.context)).catch((e) => e)
    assert.deepEqual(streamErrorOf(error), {
      status: 500,
      message: 'An unknown error occured while generating the response',
    })
  })
})
