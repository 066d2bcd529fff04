import { test } from '@japa/runner'
import AiUsage from '#models/ai_usage'
import Credential from '#models/credential'
import type User from '#models/user'
import { CreateCredential } from '#actions/credentials/create_credential'
import { TestCredential } from '#actions/credentials/test_credential'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import { runNodeWith } from '#services/workflows/executor_ports'
import type { WorkflowBlock } from '#shared/workflow/types'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import type { StartChatResponse } from '#shared/chat/types'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { speechBytes, startElevenLabsStandIn } from '#tests/stand_ins/elevenlabs'

/**
 * The ElevenLabs block through the real runner context (credentials from the database,
 * guarded HTTP, storage, AI credits) against the local ElevenLabs stand-in.
 */

const KEY = 'xi-test-key-0123456789'
const ACTION = 'Convert text to speech'

const VARIABLES: VariableState[] = [
  { id: 'v_name', name: 'Name', value: 'Ada' },
  { id: 'v_audio', name: 'Audio URL' },
]

interface Owner {
  user: User
  workspaceId: string
  credentialsId: string
}

test.group('ElevenLabs block', (group) => {
  let service: Awaited<ReturnType<typeof startElevenLabsStandIn>>

  group.setup(async () => {
    service = await startElevenLabsStandIn({ apiKey: KEY })
    return () => service.close()
  })
  group.each.setup(() => {
    service.requests.length = 0
  })

  async function owner(apiKey = KEY): Promise<Owner> {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'elevenlabs',
      name: 'ElevenLabs',
      data: { apiKey, baseUrl: service.baseUrl },
    })
    return { user, workspaceId: workspace.id, credentialsId: record.id }
  }

  async function run(who: Owner, options: Record<string, unknown>) {
    const registry = await pluginRegistry()
    return runPlugin({
      registry,
      plugin: registry.get('elevenlabs')!,
      surface: 'bot',
      options: { credentialsId: who.credentialsId, action: ACTION, ...options },
      variables: VARIABLES,
      workspaceId: who.workspaceId,
      ownerId: who.user.id,
    })
  }

  const usagesOf = (who: Owner) =>
    AiUsage.query().where('account_id', who.user.id).where('source', 'elevenlabs')

  test('the credential test lists the models; a wrong key is refused', async ({ assert }) => {
    const good = await owner()
    const ok = await new TestCredential().handle(
      good.user,
      await Credential.findOrFail(good.credentialsId)
    )
    assert.deepEqual(ok, { ok: true, message: 'Connected: 2 text-to-speech models available.' })
    assert.equal(service.requests[0].path, '/v1/models')
    assert.equal(service.requests[0].headers['xi-api-key'], KEY)

    const bad = await owner('wrong')
    const refused = await new TestCredential().handle(
      bad.user,
      await Credential.findOrFail(bad.credentialsId)
    )
    assert.deepEqual(refused, { ok: false, message: 'The API key was refused (401).' })
  })

  test('the voice and model fields list the account voices and the speaking models', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    // As the editor asks: the fetcher endpoint, with the block's options.
    const fetch = (fetcher: string) =>
      client
        .post(`/api/plugins/elevenlabs/fetchers/${fetcher}`)
        .loginAs(who.user)
        .withCsrfToken()
        .json({
          workspaceId: who.workspaceId,
          options: { credentialsId: who.credentialsId, action: ACTION },
        })
    const voices = await fetch('voices')
    voices.assertStatus(200)
    assert.deepEqual(voices.body().items, [
      { value: 'voice-rachel', label: 'Rachel' },
      { value: 'voice-adam', label: 'Adam' },
    ])
    const models = await fetch('models')
    models.assertStatus(200)
    // The speech-to-speech model cannot read a text: left out.
    assert.deepEqual(models.body().items, [
      { value: 'eleven_multilingual_v2', label: 'Multilingual v2' },
      { value: 'eleven_turbo_v2_5', label: 'Turbo v2.5' },
    ])
    assert.deepEqual(
      service.requests.map((r) => [r.method, r.path, r.headers['xi-api-key']]),
      [
        ['GET', '/v1/voices', KEY],
        ['GET', '/v1/models', KEY],
      ]
    )

    // A refused key reaches the editor in the provider's words.
    const wrong = await owner('wrong')
    const refused = await client
      .post('/api/plugins/elevenlabs/fetchers/voices')
      .loginAs(wrong.user)
      .withCsrfToken()
      .json({ workspaceId: wrong.workspaceId, options: { credentialsId: wrong.credentialsId } })
    refused.assertStatus(422)
    assert.include(JSON.stringify(refused.body()), 'Invalid API key')
  })

  test('converts the text, stores the MP3 and saves a URL that serves it', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, {
      text: 'Hello {{Name}}, welcome!',
      voiceId: 'voice-rachel',
      modelId: 'eleven_multilingual_v2',
      saveUrlInVariableId: 'v_audio',
    })
    assert.deepEqual(out.logs, [])
    const [request] = service.requests
    assert.equal(request.method, 'POST')
    assert.equal(request.path, '/v1/text-to-speech/voice-rachel')
    assert.equal(request.headers['xi-api-key'], KEY)
    assert.isUndefined(request.headers.authorization)
    assert.equal(request.headers.accept, 'audio/mpeg')
    assert.deepEqual(request.json, {
      text: 'Hello Ada, welcome!',
      model_id: 'eleven_multilingual_v2',
    })

    assert.lengthOf(out.variablesSet, 1)
    assert.equal(out.variablesSet[0].id, 'v_audio')
    const url = String(out.variablesSet[0].value)
    assert.match(url, new RegExp(`/storage/public/${who.workspaceId}/[0-9a-z]+\\.mp3$`))
    const served = await fetch(url)
    assert.equal(served.status, 200)
    assert.equal(served.headers.get('content-type'), 'audio/mpeg')
    assert.deepEqual(
      Buffer.from(await served.arrayBuffer()),
      speechBytes('Hello Ada, welcome!', 'voice-rachel', 'eleven_multilingual_v2')
    )

    // The call is recorded under its model, with 0 tokens (the service counts characters).
    const usages = await usagesOf(who)
    assert.lengthOf(usages, 1)
    assert.equal(usages[0].model, 'eleven_multilingual_v2')
    assert.equal(usages[0].inputTokens, 0)
    assert.equal(usages[0].outputTokens, 0)
    assert.equal(usages[0].workspaceId, who.workspaceId)
  })

  test('without a model the service default is used (no model_id sent)', async ({ assert }) => {
    const who = await owner()
    const out = await run(who, {
      text: 'Hi',
      voiceId: 'voice-adam',
      saveUrlInVariableId: 'v_audio',
    })
    assert.deepEqual(out.logs, [])
    assert.deepEqual(service.requests[0].json, { text: 'Hi' })
    const usages = await usagesOf(who)
    assert.lengthOf(usages, 1)
    assert.isNull(usages[0].model)
  })

  test('the messages for a missing voice, text or variable, and a missing key', async ({
    assert,
  }) => {
    const who = await owner()
    const base = { text: 'Hi', voiceId: 'voice-adam', saveUrlInVariableId: 'v_audio' }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, voiceId: '' }, 'Voice ID is missing'],
      [{ ...base, text: '  ' }, 'Text is missing'],
      [{ ...base, saveUrlInVariableId: undefined }, 'Save variable is missing'],
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
    assert.lengthOf(await usagesOf(who), 0)
  })

  test('a provider error gives the error log with its details and the flow goes on', async ({
    assert,
  }) => {
    const who = await owner()
    const crashed = await run(who, {
      text: 'Hi',
      voiceId: 'broken',
      saveUrlInVariableId: 'v_audio',
    })
    assert.lengthOf(crashed.logs, 1)
    assert.equal(crashed.logs[0].status, 'error')
    assert.equal(
      crashed.logs[0].description,
      'An error occured while converting the text to speech'
    )
    assert.deepInclude(crashed.logs[0].details as object, {
      status: 500,
      message: 'The voice server crashed',
    })
    assert.deepEqual((crashed.logs[0].details as any).body, {
      detail: { status: 'internal_error', message: 'The voice server crashed' },
    })
    assert.isUndefined(crashed.result)
    assert.deepEqual(crashed.variablesSet, [])

    // A model that cannot speak is refused by the service: same log, nothing stored.
    const refused = await run(who, {
      text: 'Hi',
      voiceId: 'voice-adam',
      modelId: 'eleven_english_sts_v2',
      saveUrlInVariableId: 'v_audio',
    })
    assert.deepEqual(
      refused.logs.map((l) => l.description),
      ['An error occured while converting the text to speech']
    )
    assert.deepInclude(refused.logs[0].details as object, { status: 400 })
    assert.lengthOf(await usagesOf(who), 0)
  })

  test('an owner without AI credits gets no call', async ({ assert }) => {
    const who = await owner()
    who.user.aiCredits = 0
    await who.user.save()
    const out = await run(who, {
      text: 'Hi',
      voiceId: 'voice-adam',
      saveUrlInVariableId: 'v_audio',
    })
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.lengthOf(service.requests, 0)
    assert.deepEqual(out.variablesSet, [])
  })

  test('in a chat, the audio bubble after the block plays the stored speech', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    await setUserPlan(who.user, 'UNLIMITED')
    const token = (await new CreateApiToken().handle(who.user, `xi-${Date.now()}`)).value
    const bot = {
      version: '6',
      name: 'Speaking bot',
      groups: [
        {
          id: 'g1',
          title: 'Speak',
          graphCoordinates: { x: 0, y: 100 },
          blocks: [
            {
              id: 'tts',
              type: 'elevenlabs',
              options: {
                credentialsId: who.credentialsId,
                action: ACTION,
                text: 'Welcome {{Name}}',
                voiceId: 'voice-rachel',
                saveUrlInVariableId: 'v_audio',
              },
            },
            { id: 'a1', type: 'audio', content: { url: '{{Audio URL}}' } },
          ],
        },
      ],
      events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
      edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
      variables: VARIABLES.map(({ id, name }) => ({ id, name })),
      theme: {},
      settings: {},
    }
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: who.workspaceId, bot })
    imported.assertStatus(201)
    const response = await client
      .post(`/api/v1/typebots/${imported.body().bot.id}/preview/startChat`)
      .bearerToken(token)
      .json({ prefilledVariables: { Name: 'Grace' } })
    response.assertStatus(200)
    const start = response.body() as StartChatResponse
    assert.notInclude(
      (start.logs ?? []).map((l) => l.status),
      'error'
    )
    assert.lengthOf(start.messages, 1)
    assert.equal(start.messages[0].type, 'audio')
    const url = String((start.messages[0].content as { url?: string }).url)
    assert.match(url, /\/storage\/public\/.+\.mp3$/)
    const served = await fetch(url)
    assert.equal(served.headers.get('content-type'), 'audio/mpeg')
    assert.deepEqual(
      Buffer.from(await served.arrayBuffer()),
      speechBytes('Welcome Grace', 'voice-rachel')
    )
  })

  test('as a workflow action (stored under its former id): the output carries the URL of the stored speech', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const registry = await pluginRegistry()
    const node = async (options: Record<string, unknown>) => {
      const block: WorkflowBlock = {
        id: 'n1',
        type: 'workflow-elevenlabs',
        graphCoordinates: { x: 0, y: 0 },
        options: { credentialsId: who.credentialsId, ...options },
      }
      return runNodeWith(registry, {
        workflow: {
          id: 'wf1',
          workspaceId: who.workspaceId,
          ownerId: who.user.id,
          executable: { blocks: [block], edges: [], root_block: 'n1', wait_blocks: [] },
          settings: {},
          variables: [],
        },
        block,
        variables: [{ id: '{{$input.name}}', name: '$input.name', value: 'Linus' }],
        signal: new AbortController().signal,
        context: {
          runId: 'run1',
          workflowId: 'wf1',
          node: { id: 'n1', type: 'workflow-elevenlabs' },
          input: { name: 'Linus' },
          trigger: 'manual',
          attempt: 1,
          conditions: [],
          evaluateCondition: () => false,
        },
      })
    }

    const done = await node({
      text: 'Hello {{$input.name}}',
      voiceId: 'voice-adam',
      modelId: 'eleven_turbo_v2_5',
    })
    assert.deepEqual(done.logs, [])
    assert.deepEqual(service.requests[0].json, {
      text: 'Hello Linus',
      model_id: 'eleven_turbo_v2_5',
    })
    assert.equal(service.requests[0].headers['xi-api-key'], KEY)
    const output = (done.result as { output: Record<string, unknown> }).output
    assert.deepInclude(output, {
      voiceId: 'voice-adam',
      modelId: 'eleven_turbo_v2_5',
      characters: 11,
    })
    const served = await fetch(String(output.url))
    assert.equal(served.headers.get('content-type'), 'audio/mpeg')
    assert.deepEqual(
      Buffer.from(await served.arrayBuffer()),
      speechBytes('Hello Linus', 'voice-adam', 'eleven_turbo_v2_5')
    )
    // A node stored under the former workflow-only id runs as the one ElevenLabs plugin.
    const nodeUsages = await AiUsage.query()
      .where('account_id', who.user.id)
      .where('source', 'elevenlabs')
    assert.lengthOf(nodeUsages, 1)
    assert.equal(nodeUsages[0].model, 'eleven_turbo_v2_5')

    // A missing voice is refused before the runner (docs/plugins.md, "Validation"); a refused
    // call fails the node with the bot block's words.
    const noVoice = await node({ text: 'Hi' })
    assert.deepEqual(
      noVoice.logs.map((l) => [l.status, l.description]),
      [['error', 'ElevenLabs: Voice is required']]
    )
    const crashed = await node({ text: 'Hi', voiceId: 'broken' })
    assert.deepEqual(
      crashed.logs.map((l) => l.description),
      ['An error occured while converting the text to speech']
    )
    assert.isUndefined(crashed.result)

    // The editor's fetcher endpoint serves the node's voice list too.
    const voices = await client
      .post('/api/plugins/workflow-elevenlabs/fetchers/voices')
      .loginAs(who.user)
      .withCsrfToken()
      .json({ workspaceId: who.workspaceId, options: { credentialsId: who.credentialsId } })
    voices.assertStatus(200)
    assert.deepEqual(
      voices.body().items.map((item: { value: string }) => item.value),
      ['voice-rachel', 'voice-adam']
    )
  })
})
