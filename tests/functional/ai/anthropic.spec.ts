import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { streamReply } from '#plugins/define_plugin'
import { streamErrorOf } from '#plugins/ai/errors'
import { TestCredential } from '#actions/credentials/test_credential'
import Credential from '#models/credential'
import type { VariableState } from '#services/runner_context'
import { startAnthropicStandIn } from '#tests/stand_ins/anthropic'
import {
  anthropicSeesImages,
  anthropicUrl,
  isListedAnthropicModel,
  toAnthropicConversation,
} from '#plugins/ai/anthropic_messages'
import { messageText } from '#engine/bot/engine'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import {
  apiOwner,
  askOnce,
  botContext,
  creditsOf,
  oneBlockBot,
  publishBot,
  resultLogs,
  descriptions,
  newOwner,
  runBlock,
  runFetcher,
  runStreamer,
  saveCredentials,
  setCredits,
  usagesOf,
} from './provider_fixtures.js'

/**
 * The Anthropic block through the registry and the real runner context, against the
 * Anthropic stand-in, which checks the headers and the conversation it receives.
 */

const KEY = 'sk-ant-stand-in'
const ACTION = 'Create Chat Message'
const HAIKU = 'claude-3-haiku-20240307'

const VARIABLES: VariableState[] = [
  { id: 'vQuestion', name: 'Question', value: 'What is 2 + 2?' },
  { id: 'vAnswer', name: 'Answer' },
  { id: 'vDialogue', name: 'Dialogue', value: ['Hi', 'Hello! How can I help?', 'Be quick'] },
]

type StandInOptions = Parameters<typeof startAnthropicStandIn>[0]

async function setup(
  cleanup: (fn: () => Promise<void> | void) => void,
  options: Partial<StandInOptions> = {}
) {
  const standIn = await startAnthropicStandIn({ apiKey: KEY, ...options })
  cleanup(() => standIn.close())
  const owner = await newOwner()
  const credentialsId = await saveCredentials(owner, 'anthropic', {
    apiKey: KEY,
    baseUrl: standIn.baseUrl,
  })
  return { standIn, owner, credentialsId }
}

function chatOptions(credentialsId: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    action: ACTION,
    credentialsId,
    model: HAIKU,
    systemMessage: 'You are terse.',
    messages: [
      { role: 'system', content: 'Answer in English.' },
      { role: 'Dialogue', dialogueVariableId: 'vDialogue', startsBy: 'user' },
      { role: 'user', content: '{{Question}}' },
    ],
    responseMapping: [{ id: 'm1', item: 'Message Content', variableId: 'vAnswer' }],
    ...extra,
  }
}

const WEATHER_TOOL = {
  name: 'getWeather',
  description: 'The weather of a city',
  parameters: [{ name: 'city', type: 'string', required: true }],
  code: 'return city + " is sunny"',
}

test.group('Anthropic: Create Chat Message', () => {
  test('sends the conversation with the key and version headers, maps the answer, charges credits', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: () => ({
        content: [{ type: 'text', text: '4.' }],
        usage: { input_tokens: 25, output_tokens: 12 },
      }),
    })
    const before = await creditsOf(owner)
    const out = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { temperature: '{{= 0.25 * 2 =}}', maxTokens: 200 }),
      VARIABLES
    )

    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), '4.')
    const [request] = standIn.requests
    assert.equal(request.method, 'POST')
    assert.equal(request.path, '/v1/messages')
    assert.equal(request.headers['x-api-key'], KEY)
    assert.equal(request.headers['anthropic-version'], '2023-06-01')
    assert.deepEqual(request.body, {
      model: HAIKU,
      max_tokens: 200,
      temperature: 0.5,
      system: 'You are terse.\n\nAnswer in English.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
        // The Dialogue's last user turn and the next user message form one turn.
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Be quick' },
            { type: 'text', text: 'What is 2 + 2?' },
          ],
        },
      ],
    })

    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.include(usages[0].serialize(), {
      model: HAIKU,
      source: 'anthropic',
      inputTokens: 25,
      outputTokens: 12,
    })
    // claude-3-haiku: 4,000,000 input and 800,000 output tokens per credit.
    assert.equal(usages[0].creditsUsed, 0.00002125)
    assert.closeTo(before - (await creditsOf(owner)), 0.00002125, 1e-9)
  })

  test('spec defaults: temperature 1 and 1024 max tokens', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'anthropic', chatOptions(credentialsId), VARIABLES)
    assert.equal(out.value('vAnswer'), 'Hello! You said: Be quick')
    assert.equal(standIn.messageBodies()[0].temperature, 1)
    assert.equal(standIn.messageBodies()[0].max_tokens, 1024)
  })

  test('a Dialogue starting with the bot: its greeting goes to the system prompt, the user speaks first', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, {
        systemMessage: '',
        messages: [{ role: 'Dialogue', dialogueVariableId: 'vDialogue', startsBy: 'assistant' }],
      }),
      VARIABLES
    )
    assert.deepEqual(out.logs, [])
    assert.deepEqual(standIn.messageBodies()[0], {
      model: HAIKU,
      max_tokens: 1024,
      temperature: 1,
      system: 'The conversation started with your message:\nHi',
      messages: [
        { role: 'user', content: 'Hello! How can I help?' },
        { role: 'assistant', content: 'Be quick' },
      ],
    })
  })

  test('no key: "No API key provided", nothing sent, nothing charged', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner } = await setup(cleanup)
    const out = await runBlock(owner, 'anthropic', chatOptions(undefined), VARIABLES)
    assert.deepEqual(descriptions(out.logs), ['No API key provided'])
    assert.lengthOf(standIn.requests, 0)
    assert.lengthOf(await usagesOf(owner), 0)
  })

  test('no model: "No model provided"', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { model: ' ' }),
      VARIABLES
    )
    assert.deepEqual(descriptions(out.logs), ['No model provided'])
    assert.lengthOf(standIn.requests, 0)
  })

  test('a provider error is logged with its details and the flow goes on', async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup, { failWith: 529 })
    const out = await runBlock(owner, 'anthropic', chatOptions(credentialsId), VARIABLES)
    assert.isUndefined(out.result)
    assert.deepEqual(descriptions(out.logs), [
      'An API call error occured while generating the response',
    ])
    assert.include(out.logs[0].details as object, { status: 529, message: 'Internal server error' })
    assert.deepEqual(out.variablesSet, [])
    assert.lengthOf(await usagesOf(owner), 0)

    const unknownModel = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { model: 'claude-9' }),
      VARIABLES
    )
    assert.include(unknownModel.logs[0].details as object, {
      status: 404,
      message: 'model: claude-9',
    })
  })

  test('a wrong key is the provider refusing: logged, not thrown', async ({ assert, cleanup }) => {
    const standIn = await startAnthropicStandIn({ apiKey: KEY })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const credentialsId = await saveCredentials(owner, 'anthropic', {
      apiKey: 'sk-ant-wrong',
      baseUrl: `${standIn.baseUrl}/v1/`,
    })
    const out = await runBlock(owner, 'anthropic', chatOptions(credentialsId), VARIABLES)
    assert.include(out.logs[0].details as object, { status: 401, message: 'invalid x-api-key' })
    // A base URL pasted with /v1 reaches the same path.
    assert.equal(standIn.requests[0].path, '/v1/messages')
  })

  test('tools: tool_use runs the code in the sandbox and the result goes back as tool_result', async ({
    assert,
    cleanup,
  }) => {
    let calls = 0
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: (request) => {
        calls++
        const last = request.messages.at(-1)!
        if (calls === 1) {
          return {
            content: [
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'toolu_1', name: 'getWeather', input: { city: 'Paris' } },
            ],
          }
        }
        const result = (last.content as any[]).find((block) => block.type === 'tool_result')
        return { content: [{ type: 'text', text: `Forecast: ${result.content}` }] }
      },
    })
    const out = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { tools: [WEATHER_TOOL] }),
      VARIABLES
    )
    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Forecast: Paris is sunny')
    const [first, second] = standIn.messageBodies()
    assert.deepEqual(first.tools, [
      {
        name: 'getWeather',
        description: 'The weather of a city',
        input_schema: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    ])
    assert.deepEqual(second.messages.slice(-2), [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'getWeather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Paris is sunny' }],
      },
    ])
    assert.lengthOf(await usagesOf(owner), 2)
  })

  test('the tool loop stops after 10 rounds, each one charged', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: (request) => ({
        content: [
          { type: 'text', text: `Round ${request.messages.length}` },
          {
            type: 'tool_use',
            id: `toolu_${request.messages.length}`,
            name: 'getWeather',
            input: { city: 'Oslo' },
          },
        ],
      }),
    })
    const out = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { tools: [WEATHER_TOOL] }),
      VARIABLES
    )
    assert.lengthOf(standIn.messageBodies(), 10)
    assert.deepEqual(descriptions(out.logs), [
      'The model still asked for tools after 10 rounds: the answer is the last one it gave.',
    ])
    // 3 turns at first, then 2 more per round: the 10th request carried 21 messages.
    assert.equal(out.value('vAnswer'), 'Round 21')
    assert.lengthOf(await usagesOf(owner), 10)
  })

  test('vision: image URLs in user messages become base64 image blocks, other links stay text', async ({
    assert,
    cleanup,
  }) => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64'
    )
    const images = createServer((req, res) => {
      if (req.url === '/cat.png') {
        res.writeHead(200, { 'content-type': 'image/png' })
        return res.end(png)
      }
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<p>page</p>')
    })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    cleanup(() => new Promise<void>((resolve) => images.close(() => resolve())))
    const host = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const text = `What is in ${host}/cat.png and ${host}/page?`
    await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { messages: [{ role: 'user', content: text }] }),
      VARIABLES
    )
    assert.deepEqual(standIn.messageBodies()[0].messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') },
          },
        ],
      },
    ])
  })

  test('no credits left: the call is not made and the context reports the limit', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    await setCredits(owner, 0)
    const out = await runBlock(owner, 'anthropic', chatOptions(credentialsId), VARIABLES)
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.lengthOf(standIn.requests, 0)
    assert.deepEqual(out.variablesSet, [])
  })
})

test.group('Anthropic: streaming', () => {
  test('a streaming client gets a stream pause; the streamer yields the deltas and charges the usage', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, {
      respond: () => ({
        content: [{ type: 'text', text: 'Two plus two is four.' }],
        usage: { input_tokens: 30, output_tokens: 7 },
      }),
      chunks: () => ['Two plus ', 'two is ', 'four.'],
    })
    const options = chatOptions(credentialsId)
    const paused = await runBlock(
      owner,
      'anthropic',
      options,
      VARIABLES,
      botContext('anthropic', 'vAnswer')
    )
    assert.deepEqual(paused.result, streamReply('vAnswer'))
    assert.lengthOf(standIn.requests, 0)

    const streamed = await runStreamer(owner, 'anthropic', options, VARIABLES)
    assert.isUndefined(streamed.error)
    assert.deepEqual(streamed.chunks, ['Two plus ', 'two is ', 'four.'])
    const [request] = standIn.requests
    assert.equal(request.headers['x-api-key'], KEY)
    assert.equal(request.headers['anthropic-version'], '2023-06-01')
    assert.isTrue(request.body.stream)
    assert.equal(request.body.system, 'You are terse.\n\nAnswer in English.')
    const usages = await usagesOf(owner)
    assert.lengthOf(usages, 1)
    assert.include(usages[0].serialize(), { model: HAIKU, inputTokens: 30, outputTokens: 7 })
  })

  test('a block with tools is not streamed: tool rounds need whole answers', async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(
      owner,
      'anthropic',
      chatOptions(credentialsId, { tools: [WEATHER_TOOL] }),
      VARIABLES,
      botContext('anthropic', 'vAnswer')
    )
    assert.isUndefined(out.result)
    assert.equal(out.value('vAnswer'), 'Hello! You said: Be quick')
  })

  test("stream errors: 401 'API key missing', 400 'model not found', provider status with the spec's fallback", async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const noKey = await runStreamer(owner, 'anthropic', chatOptions(undefined), VARIABLES)
    assert.deepEqual(streamErrorOf(noKey.error), { status: 401, message: 'API key missing' })

    const noModel = await runStreamer(
      owner,
      'anthropic',
      chatOptions(credentialsId, { model: '' }),
      VARIABLES
    )
    assert.deepEqual(streamErrorOf(noModel.error), { status: 400, message: 'model not found' })

    const unknownModel = await runStreamer(
      owner,
      'anthropic',
      chatOptions(credentialsId, { model: 'claude-9' }),
      VARIABLES
    )
    assert.deepEqual(streamErrorOf(unknownModel.error), { status: 400, message: 'model not found' })

    const failing = await setup(cleanup, { failWith: 500 })
    const failed = await runStreamer(
      failing.owner,
      'anthropic',
      chatOptions(failing.credentialsId),
      VARIABLES
    )
    assert.deepEqual(streamErrorOf(failed.error), {
      status: 500,
      message: 'An error occured while generating the stream',
    })
  })

  test('an error event mid-stream ends it with the error, after charging what was generated', async ({
    assert,
    cleanup,
  }) => {
    const { owner, credentialsId } = await setup(cleanup, { streamErrorAfterFirstChunk: true })
    const out = await runStreamer(owner, 'anthropic', chatOptions(credentialsId), VARIABLES)
    assert.deepEqual(out.chunks, ['Hello! '])
    assert.deepEqual(streamErrorOf(out.error), {
      status: 529,
      message: 'An error occured while generating the stream',
    })
    assert.lengthOf(await usagesOf(owner), 1)
  })
})

test.group('Anthropic: models and credentials', () => {
  test('the models fetcher lists the live models without 2.x and instant ones', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, { modelsPageSize: 2 })
    const models = await runFetcher(owner, 'anthropic', 'models', { credentialsId })
    assert.deepEqual(
      models.map((model) => model.value),
      ['claude-3-opus-20240229', 'claude-3-haiku-20240307', 'claude-sonnet-4-20250514']
    )
    // Three pages of two.
    assert.lengthOf(standIn.requests, 3)
    assert.equal(standIn.requests[1].headers['x-api-key'], KEY)

    const offline = await runFetcher(owner, 'anthropic', 'models', {})
    assert.includeMembers(
      offline.map((model) => model.value),
      ['claude-3-opus-20240229', 'claude-3-haiku-20240307']
    )
    assert.isFalse(offline.some((model) => /claude-2|instant/.test(model.value)))
  })

  test('the credential test lists the models with the key', async ({ assert, cleanup }) => {
    const { owner, credentialsId } = await setup(cleanup)
    const good = await new TestCredential().handle(
      owner.user,
      await Credential.findOrFail(credentialsId)
    )
    assert.deepEqual(good, { ok: true, message: 'Connected: 5 models available.' })

    const standIn = await startAnthropicStandIn({ apiKey: 'another' })
    cleanup(() => standIn.close())
    const wrongId = await saveCredentials(owner, 'anthropic', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const wrong = await new TestCredential().handle(
      owner.user,
      await Credential.findOrFail(wrongId)
    )
    assert.deepEqual(wrong, { ok: false, message: 'invalid x-api-key' })
  })
})

test.group('Anthropic in a chat', () => {
  async function publishWith(
    client: Parameters<typeof publishBot>[0],
    cleanup: (fn: () => Promise<void> | void) => void,
    options: Partial<StandInOptions> = {}
  ) {
    const standIn = await startAnthropicStandIn({ apiKey: KEY, ...options })
    cleanup(() => standIn.close())
    const owner = await apiOwner()
    const credentialsId = await saveCredentials(owner, 'anthropic', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const block = {
      type: 'anthropic',
      options: {
        action: ACTION,
        credentialsId,
        model: HAIKU,
        messages: [{ role: 'user', content: '{{Question}}' }],
        responseMapping: [{ id: 'm1', item: 'Message Content', variableId: 'v_answer' }],
      },
    }
    const publicId = await publishBot(
      client,
      owner,
      oneBlockBot(block, 'Claude: {{Answer}}.', [{ id: 'v_answer', name: 'Answer' }])
    )
    return { standIn, owner, publicId }
  }

  test('the answer reaches the next bubble', async ({ assert, client, cleanup }) => {
    const { publicId } = await publishWith(client, cleanup)
    const { reply } = await askOnce(client, publicId, 'Hi there')
    assert.deepEqual(reply.messages.map(messageText), ['Claude: Hello! You said: Hi there.'])
  })

  test('a provider failure is logged in the result and the chat goes on', async ({
    assert,
    client,
    cleanup,
  }) => {
    const { publicId } = await publishWith(client, cleanup, { failWith: 500 })
    const { reply, resultId } = await askOnce(client, publicId, 'Hi there')
    assert.deepEqual(reply.messages.map(messageText), ['Claude: .'])
    assert.deepInclude(await resultLogs(resultId), {
      status: 'error',
      description: 'An API call error occured while generating the response',
    })
  })

  test('an owner without credits: no call, the reply says so', async ({
    assert,
    client,
    cleanup,
  }) => {
    const { standIn, owner, publicId } = await publishWith(client, cleanup)
    await setCredits(owner, 0)
    const { reply } = await askOnce(client, publicId, 'Hi there')
    assert.equal(reply.aiCreditLimitExceededError, AI_CREDIT_LIMIT_EXCEEDED_TEXT)
    assert.lengthOf(standIn.requests, 0)
  })
})

test.group('Anthropic: protocol details', () => {
  test('conversation shaping: system entries lifted, turns merged, unfetched images left out', ({
    assert,
  }) => {
    const shaped = toAnthropicConversation(
      [
        { role: 'assistant', content: 'Welcome!' },
        { role: 'assistant', content: 'Ask me anything.' },
        { role: 'system', content: '  Be kind.  ' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look: http://x/a.png' },
            { type: 'image_url', image_url: { url: 'http://x/a.png' } },
          ],
        },
        { role: 'user', content: '   ' },
      ],
      { systemMessage: '' }
    )
    assert.deepEqual(shaped, {
      // The API wants the user first: the bot's opening words go to the system prompt.
      system: 'Be kind.\n\nThe conversation started with your message:\nWelcome!\nAsk me anything.',
      messages: [{ role: 'user', content: 'Look: http://x/a.png' }],
    })
  })

  test('models: who sees images, which ids are offered, where requests go', ({ assert }) => {
    for (const model of [
      'claude-3-opus-20240229',
      'claude-3-5-sonnet-20241022',
      'claude-sonnet-4-20250514',
      'claude-opus-4-1-20250805',
    ]) {
      assert.isTrue(anthropicSeesImages(model), model)
      assert.isTrue(isListedAnthropicModel(model), model)
    }
    for (const model of ['claude-2.1', 'claude-2.0', 'claude-instant-1.2']) {
      assert.isFalse(anthropicSeesImages(model), model)
      assert.isFalse(isListedAnthropicModel(model), model)
    }
    const key = { apiKey: 'k' }
    assert.equal(anthropicUrl(key, 'messages').href, 'https://api.anthropic.com/v1/messages')
    assert.equal(
      anthropicUrl({ ...key, baseUrl: 'https://proxy.example.com/anthropic/v1/' }, 'models').href,
      'https://proxy.example.com/anthropic/v1/models'
    )
  })
})
