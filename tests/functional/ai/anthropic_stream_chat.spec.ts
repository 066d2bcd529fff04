import { test } from '@japa/runner'
import { streamReply } from '#plugins/define_plugin'
import { streamErrorOf } from '#sdk/ai'
import { TestCredential } from '#actions/credentials/test_credential'
import Credential from '#models/credential'
import { startAnthropicStandIn } from '#tests/stand_ins/anthropic'
import {
  anthropicSeesImages,
  anthropicUrl,
  isListedAnthropicModel,
  toAnthropicConversation,
} from '#sdk/ai'
import { messageText } from '#engine/bot/engine'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import {
  apiOwner,
  askOnce,
  botContext,
  oneBlockBot,
  publishBot,
  resultLogs,
  runBlock,
  runFetcher,
  runStreamer,
  saveCredentials,
  setCredits,
  usagesOf,
} from './provider_fixtures.js'
import {
  KEY,
  ACTION,
  HAIKU,
  VARIABLES,
  type StandInOptions,
  setup,
  chatOptions,
  WEATHER_TOOL,
} from '#tests/functional/ai/anthropic_setup'

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

  test("stream errors: 401 'API key missing', 400 'model not found', provider status with the fallback text", async ({
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
