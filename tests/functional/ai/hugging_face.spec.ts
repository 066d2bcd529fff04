import { test } from '@japa/runner'
import AiUsage from '#models/ai_usage'
import Credential from '#models/credential'
import type User from '#models/user'
import { CreateCredential } from '#actions/credentials/create_credential'
import { TestCredential } from '#actions/credentials/test_credential'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { STAND_IN_JPEG, STAND_IN_PNG, startHuggingFaceStandIn } from '#tests/stand_ins/hugging_face'

/**
 * The Hugging Face block through the real runner context (credentials from the database,
 * guarded HTTP, storage, AI credits) against the local inference stand-in.
 */

const KEY = 'hf_test_0123456789'

const VARIABLES: VariableState[] = [
  { id: 'v_prompt', name: 'Prompt', value: 'Once upon a time' },
  { id: 'v_result', name: 'Result' },
]

interface Owner {
  user: User
  workspaceId: string
  credentialsId: string
}

test.group('Hugging Face block', (group) => {
  let service: Awaited<ReturnType<typeof startHuggingFaceStandIn>>

  group.setup(async () => {
    service = await startHuggingFaceStandIn({ apiKey: KEY, user: 'ada' })
    return () => service.close()
  })
  group.each.setup(() => {
    service.requests.length = 0
  })

  async function owner(apiKey = KEY): Promise<Owner> {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'hugging-face',
      name: 'Hugging Face',
      data: { apiKey, baseUrl: service.baseUrl },
    })
    return { user, workspaceId: workspace.id, credentialsId: record.id }
  }

  async function run(who: Owner, options: Record<string, unknown>) {
    const registry = await pluginRegistry()
    return runPlugin({
      registry,
      plugin: registry.get('hugging-face')!,
      options: { credentialsId: who.credentialsId, saveResultInVariableId: 'v_result', ...options },
      variables: VARIABLES,
      workspaceId: who.workspaceId,
      ownerId: who.user.id,
    })
  }

  const usagesOf = (who: Owner) =>
    AiUsage.query().where('account_id', who.user.id).where('source', 'hugging-face')

  test('the credential test asks whose token it is; a wrong token is refused', async ({
    assert,
  }) => {
    const good = await owner()
    const ok = await new TestCredential().handle(
      good.user,
      await Credential.findOrFail(good.credentialsId)
    )
    assert.deepEqual(ok, { ok: true, message: 'Connected as ada.' })
    assert.equal(service.requests[0].path, '/api/whoami-v2')
    assert.equal(service.requests[0].headers.authorization, `Bearer ${KEY}`)

    const bad = await owner('hf_wrong')
    const refused = await new TestCredential().handle(
      bad.user,
      await Credential.findOrFail(bad.credentialsId)
    )
    assert.deepEqual(refused, { ok: false, message: 'The access token was refused (401).' })
  })

  test('text generation: the generated text is saved', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, { modelId: 'openai-community/gpt2', text: '{{Prompt}}' })
    assert.deepEqual(out.logs, [])
    const [request] = service.requests
    assert.equal(request.method, 'POST')
    // The model id's slash stays a path separator.
    assert.equal(request.path, '/models/openai-community/gpt2')
    assert.equal(request.headers.authorization, `Bearer ${KEY}`)
    assert.match(String(request.headers['content-type']), /^application\/json/)
    assert.equal(request.headers['x-wait-for-model'], 'true')
    assert.deepEqual(request.json, { inputs: 'Once upon a time' })
    assert.deepEqual(out.variablesSet, [
      { id: 'v_result', value: 'Once upon a time and then the story went on.' },
    ])

    const usages = await usagesOf(who)
    assert.lengthOf(usages, 1)
    assert.equal(usages[0].model, 'openai-community/gpt2')
    assert.equal(usages[0].inputTokens, 0)
    assert.equal(usages[0].outputTokens, 0)
    assert.equal(usages[0].workspaceId, who.workspaceId)
  })

  test('other JSON answers (classification) are saved as JSON text', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, { modelId: 'distilbert/sst2', text: 'I love it' })
    assert.deepEqual(out.logs, [])
    const saved = out.variablesSet[0]
    assert.equal(saved.id, 'v_result')
    assert.deepEqual(JSON.parse(String(saved.value)), [
      [
        { label: 'POSITIVE', score: 0.98 },
        { label: 'NEGATIVE', score: 0.02 },
      ],
    ])
  })

  test('an image result is stored as png and its URL serves it', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, { modelId: 'stand-in/text-to-image', text: 'A red square' })
    assert.deepEqual(out.logs, [])
    assert.deepEqual(service.requests[0].json, { inputs: 'A red square' })
    const url = String(out.variablesSet[0].value)
    assert.match(url, new RegExp(`/storage/public/${who.workspaceId}/[0-9a-z]+\\.png$`))
    const served = await fetch(url)
    assert.equal(served.status, 200)
    assert.equal(served.headers.get('content-type'), 'image/png')
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), STAND_IN_PNG)
    assert.lengthOf(await usagesOf(who), 1)
  })

  test('a JPEG result keeps its own format (not mislabelled as png)', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, { modelId: 'stand-in/text-to-jpeg', text: 'A red square' })
    assert.deepEqual(out.logs, [])
    const url = String(out.variablesSet[0].value)
    assert.match(url, /\.jpg$/)
    const served = await fetch(url)
    assert.equal(served.headers.get('content-type'), 'image/jpeg')
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), STAND_IN_JPEG)
  })

  test('model, text, save variable and key are required; nothing is sent without them', async ({
    assert,
  }) => {
    const who = await owner()
    const base = { modelId: 'openai-community/gpt2', text: 'Hi' }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, modelId: ' ' }, 'Model ID is missing'],
      [{ ...base, text: '' }, 'Text is missing'],
      [{ ...base, saveResultInVariableId: '' }, 'Save variable is missing'],
      [{ ...base, credentialsId: undefined }, 'No API key provided'],
    ]
    for (const [options, message] of cases) {
      const out = await run(who, options)
      assert.deepEqual(
        out.logs.map((l) => [l.status, l.description]),
        [['error', message]]
      )
      assert.deepEqual(out.variablesSet, [])
    }
    assert.lengthOf(service.requests, 0)
  })

  test('a provider error is logged with its details and the flow goes on', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, { modelId: 'stand-in/broken', text: 'Hi' })
    assert.lengthOf(out.logs, 1)
    assert.equal(out.logs[0].status, 'error')
    assert.equal(out.logs[0].description, 'An error occurred while classifying the text')
    assert.deepEqual(out.logs[0].details, {
      status: 500,
      message: 'The model crashed while loading',
      body: { error: 'The model crashed while loading' },
    })
    assert.isUndefined(out.result)
    assert.deepEqual(out.variablesSet, [])

    const unknown = await run(who, { modelId: 'nobody/nothing', text: 'Hi' })
    assert.deepInclude(unknown.logs[0].details as object, {
      status: 404,
      message: 'Model nobody/nothing does not exist',
    })
    assert.lengthOf(await usagesOf(who), 0)
  })

  test('an owner without AI credits gets no call', async ({ assert }) => {
    const who = await owner()
    who.user.aiCredits = 0
    await who.user.save()
    const out = await run(who, { modelId: 'openai-community/gpt2', text: 'Hi' })
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.lengthOf(service.requests, 0)
  })

  test('URLs: the default base checks tokens on the hub; model ids keep their slash', async ({
    assert,
  }) => {
    const { modelUrl, whoamiUrl } = await import('../../../plugins/hugging-face/api.js')
    assert.equal(whoamiUrl({}), 'https://huggingface.co/api/whoami-v2')
    assert.equal(
      whoamiUrl({ baseUrl: 'https://api-inference.huggingface.co/' }),
      'https://huggingface.co/api/whoami-v2'
    )
    assert.equal(
      whoamiUrl({ baseUrl: 'http://hf.local:8080/' }),
      'http://hf.local:8080/api/whoami-v2'
    )
    assert.equal(
      modelUrl({}, 'stabilityai/stable-diffusion-xl-base-1.0'),
      'https://api-inference.huggingface.co/models/stabilityai/stable-diffusion-xl-base-1.0'
    )
    assert.equal(
      modelUrl({ baseUrl: 'http://hf.local' }, 'org/a b?c'),
      'http://hf.local/models/org/a%20b%3Fc'
    )
  })
})
