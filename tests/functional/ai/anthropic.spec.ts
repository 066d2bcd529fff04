import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startAnthropicStandIn } from '#tests/stand_ins/anthropic'
import {
  creditsOf,
  descriptions,
  newOwner,
  runBlock,
  saveCredentials,
  setCredits,
  usagesOf,
} from './provider_fixtures.js'
import {
  KEY,
  HAIKU,
  VARIABLES,
  setup,
  chatOptions,
  WEATHER_TOOL,
} from '#tests/functional/ai/anthropic_setup'

/**
 * The Anthropic block through the registry and the real runner context, against the
 * Anthropic stand-in, which checks the headers and the conversation it receives.
 */

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

  test('defaults: temperature 1 and 1024 max tokens', async ({ assert, cleanup }) => {
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
