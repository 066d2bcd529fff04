import { test } from '@japa/runner'
import { pluginRegistry, credentialsModuleOf } from '#services/plugin_registry'
import { buildContext, createVariableStore } from '#services/runner_context'
import { aiPort } from '#services/ai/credits'
import { createGuardedHttp } from '#plugins/guarded_http'
import { streamErrorOf } from '#sdk/ai'
import type { Fetcher, Streamer } from '#plugins/define_plugin'
import {
  STAND_IN_USAGE,
  startOpenAiStandIn,
  type OpenAiStandInOptions,
} from '#tests/stand_ins/openai'
import {
  VARIABLES,
  botContext,
  credentialsFor,
  descriptions,
  newOwner,
  runBlock,
  usagesOf,
  type Owner,
} from './openai_fixtures.js'

/**
 * OpenRouter, Together AI and Groq: the same chat completion as OpenAI (one shared runner),
 * each against the OpenAI-compatible stand-in. OpenRouter and Together have fixed base URLs:
 * the test points their runner's `service` at the stand-in for its duration.
 */

const KEY = 'provider-key'

const PROVIDERS = [
  { id: 'open-router', fixed: true },
  { id: 'together-ai', fixed: true },
  { id: 'groq', fixed: false },
] as const

async function setup(
  id: string,
  cleanup: (fn: () => Promise<void>) => void,
  options: Partial<OpenAiStandInOptions> = {}
) {
  const standIn = await startOpenAiStandIn({ apiKey: KEY, ...options })
  const registry = await pluginRegistry()
  const service = await registry.exportOf<{ baseUrl: string }>(id, 'service')
  const previous = service?.baseUrl
  if (service) service.baseUrl = standIn.baseUrl
  cleanup(async () => {
    if (service && previous) service.baseUrl = previous
    await standIn.close()
  })
  const owner = await newOwner()
  const data: Record<string, unknown> = { apiKey: KEY }
  if (!service) data.baseUrl = standIn.baseUrl
  const credentialsId = await credentialsFor(owner, id, data)
  return { standIn, owner, credentialsId, data }
}

function chatOptions(credentialsId: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    action: 'Create chat completion',
    credentialsId,
    model: 'meta-llama/llama-3.3-70b',
    messages: [{ role: 'user', content: 'Hello from {{City}}' }],
    responseMapping: [
      { item: 'Message content', variableId: 'vAnswer' },
      { item: 'Total tokens', variableId: 'vTokens' },
    ],
    ...extra,
  }
}

function contextFor(owner: Owner, id: string, credentials: Record<string, unknown>, options = {}) {
  const { store, changes } = createVariableStore(VARIABLES)
  const input = {
    plugin: { id } as any,
    options,
    variables: VARIABLES,
    workspaceId: owner.workspace.id,
    ownerId: owner.user.id,
  }
  const ai = aiPort({ ownerId: owner.user.id, workspaceId: owner.workspace.id, source: id })
  return { context: buildContext(input, options, credentials, store, [], ai), changes }
}

for (const provider of PROVIDERS) {
  test.group(`${provider.id}: Create chat completion`, () => {
    test('happy path: answer and tokens mapped, temperature 1 by default, usage recorded', async ({
      assert,
      cleanup,
    }) => {
      const { standIn, owner, credentialsId } = await setup(provider.id, cleanup)
      const out = await runBlock(owner, provider.id, chatOptions(credentialsId))
      assert.deepEqual(out.logs, [])
      assert.equal(out.value('vAnswer'), 'Echo: Hello from Paris')
      assert.equal(out.value('vTokens'), STAND_IN_USAGE.total_tokens)
      const [call] = standIn.callsTo('/v1/chat/completions')
      assert.equal(call.headers.authorization, `Bearer ${KEY}`)
      assert.equal(call.json.model, 'meta-llama/llama-3.3-70b')
      assert.equal(call.json.temperature, 1)
      assert.deepEqual(call.json.messages, [{ role: 'user', content: 'Hello from Paris' }])
      const [usage] = await usagesOf(owner)
      assert.equal(usage.source, provider.id)
      assert.equal(usage.inputTokens, STAND_IN_USAGE.prompt_tokens)
    })

    test('missing key, missing model and a provider error are logged; the flow goes on', async ({
      assert,
      cleanup,
    }) => {
      const { standIn, owner, credentialsId } = await setup(provider.id, cleanup)
      const noKey = await runBlock(owner, provider.id, chatOptions(undefined))
      assert.deepEqual(descriptions(noKey.logs), ['No API key provided'])
      const noModel = await runBlock(owner, provider.id, chatOptions(credentialsId, { model: '' }))
      assert.deepEqual(descriptions(noModel.logs), ['No model selected'])
      assert.lengthOf(standIn.requests, 0)

      standIn.failWith(500, { error: { message: 'Internal error' } })
      const failed = await runBlock(owner, provider.id, chatOptions(credentialsId))
      assert.deepEqual(descriptions(failed.logs), [
        'An API call error occured while generating the response',
      ])
      assert.deepEqual(failed.variablesSet, [])
    })

    test('tools run in the sandbox through the shared tool loop', async ({ assert, cleanup }) => {
      const { owner, credentialsId } = await setup(provider.id, cleanup, {
        toolArguments: { a: 2, b: 3 },
      })
      const tools = [
        {
          name: 'add',
          parameters: [
            { name: 'a', type: 'number' },
            { name: 'b', type: 'number' },
          ],
          code: 'return a + b',
        },
      ]
      const out = await runBlock(owner, provider.id, chatOptions(credentialsId, { tools }))
      assert.equal(out.value('vAnswer'), 'Tool said: 5')
    })

    test('streaming: a stream pause, then the streamer yields the answer and records usage', async ({
      assert,
      cleanup,
    }) => {
      const { standIn, owner, credentialsId, data } = await setup(provider.id, cleanup)
      const paused = await runBlock(owner, provider.id, chatOptions(credentialsId), {
        bot: botContext('vAnswer'),
      })
      assert.equal((paused.result as any).saveReplyInVariableId, 'vAnswer')
      assert.lengthOf(standIn.requests, 0)

      const streams = await (
        await pluginRegistry()
      ).exportOf<Record<string, Streamer<any, any>>>(provider.id, 'streams')
      const { context, changes } = contextFor(owner, provider.id, data, {
        ...chatOptions(credentialsId),
        messages: [{ role: 'user', content: 'Hello there' }],
      })
      let text = ''
      for await (const chunk of streams!['Create chat completion'](context)) text += chunk
      assert.equal(text, 'Echo: Hello there')
      assert.isTrue(standIn.callsTo('/v1/chat/completions')[0].json.stream)
      assert.lengthOf(await usagesOf(owner), 1)
      assert.deepEqual(changes(), [{ id: 'vTokens', value: STAND_IN_USAGE.total_tokens }])

      const { context: keyless } = contextFor(owner, provider.id, {}, chatOptions(undefined))
      const error = await (async () => {
        for await (const chunk of streams!['Create chat completion'](keyless)) void chunk
      })().catch((e) => e)
      assert.deepEqual(streamErrorOf(error), { status: 401, message: 'API key missing' })
    })

    test('the credential test lists the models', async ({ assert, cleanup }) => {
      const { data } = await setup(provider.id, cleanup)
      const registry = await pluginRegistry()
      const module = await credentialsModuleOf(registry.get(provider.id)!)
      const http = createGuardedHttp({ allowInternal: true })
      const signal = AbortSignal.timeout(10_000)
      assert.deepEqual(await module!.test!({ credentials: data, http, signal }), {
        ok: true,
        message: 'Connected: 3 models available.',
      })
      const refused = await module!.test!({
        credentials: { ...data, apiKey: 'wrong' },
        http,
        signal,
      })
      assert.isFalse(refused.ok)
      assert.equal(refused.message, 'Incorrect API key provided.')
    })
  })
}

test.group('Compatible providers: models fetchers', () => {
  async function fetched(id: string, owner: Owner, data: Record<string, unknown>) {
    const fetchers = await (
      await pluginRegistry()
    ).exportOf<Record<string, Fetcher>>(id, 'fetchers')
    return fetchers!.models(contextFor(owner, id, data).context as any)
  }

  test('OpenRouter reads data[].id and name', async ({ assert, cleanup }) => {
    const { owner, data } = await setup('open-router', cleanup, {
      models: [
        { id: 'openai/gpt-4o', name: 'OpenAI: GPT-4o' },
        { id: 'anthropic/claude-3-haiku', name: 'Anthropic: Claude 3 Haiku' },
      ],
    })
    assert.deepEqual(await fetched('open-router', owner, data), [
      { value: 'openai/gpt-4o', label: 'OpenAI: GPT-4o' },
      { value: 'anthropic/claude-3-haiku', label: 'Anthropic: Claude 3 Haiku' },
    ])
  })

  test('Together AI answers a bare array', async ({ assert, cleanup }) => {
    const { owner, data } = await setup('together-ai', cleanup, {
      modelsShape: 'array',
      models: [{ id: 'mistralai/Mixtral-8x7B', name: undefined }, { id: 'Qwen/Qwen2.5-72B' }],
    })
    assert.deepEqual(await fetched('together-ai', owner, data), [
      { value: 'mistralai/Mixtral-8x7B', label: 'mistralai/Mixtral-8x7B' },
      { value: 'Qwen/Qwen2.5-72B', label: 'Qwen/Qwen2.5-72B' },
    ])
  })

  test('Groq sorts by created', async ({ assert, cleanup }) => {
    const { owner, data } = await setup('groq', cleanup, {
      models: [
        { id: 'newest', created: 300 },
        { id: 'oldest', created: 100 },
        { id: 'middle', created: 200 },
      ],
    })
    assert.deepEqual(
      (await fetched('groq', owner, data)).map((model) => model.value),
      ['oldest', 'middle', 'newest']
    )
  })

  test('without a key the fetcher fails with the missing-key words', async ({ assert }) => {
    const owner = await newOwner()
    await assert.rejects(() => fetched('groq', owner, {}), 'No API key provided')
  })
})
