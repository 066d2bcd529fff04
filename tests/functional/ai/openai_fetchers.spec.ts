import { test } from '@japa/runner'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { createUser } from '#tests/helpers'
import { credentialsFor, newOwner } from './openai_fixtures.js'

/**
 * POST /api/plugins/:pluginId/fetchers/:fetcher: the live options of an editor field
 * (optionsFrom), run with the block's credentials in the member's workspace.
 */

const KEY = 'sk-fetch'

test.group('Plugin fetchers endpoint', () => {
  test('lists the models of the chosen OpenAI credentials', async ({ client, cleanup }) => {
    const standIn = await startOpenAiStandIn({
      apiKey: KEY,
      models: ['gpt-4o', 'whisper-1', 'tts-1'],
    })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const credentialsId = await credentialsFor(owner, 'openai', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const response = await client
      .post('/api/plugins/openai/fetchers/models')
      .json({
        workspaceId: owner.workspace.id,
        options: { credentialsId, action: 'Create chat completion' },
      })
      .loginAs(owner.user)
      .withCsrfToken()
    response.assertStatus(200)
    response.assertBody({
      items: [
        { value: 'gpt-4o', label: 'gpt-4o' },
        { value: 'tts-1', label: 'tts-1' },
      ],
    })
    // The key went to the provider as a bearer token.
    const [call] = standIn.callsTo('/v1/models')
    if (call.headers.authorization !== `Bearer ${KEY}`) throw new Error('no bearer key sent')
  })

  test('uses the current workspace when the body names none', async ({ client, cleanup }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY, models: ['llama-3'] })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const credentialsId = await credentialsFor(owner, 'groq', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const response = await client
      .post('/api/plugins/groq/fetchers/models')
      .json({ options: { credentialsId } })
      .loginAs(owner.user)
      .withCsrfToken()
    response.assertStatus(200)
    response.assertBody({ items: [{ value: 'llama-3', label: 'llama-3' }] })
  })

  test('a provider refusal is a 422 with its message', async ({ client, cleanup }) => {
    const standIn = await startOpenAiStandIn({ apiKey: 'another-key' })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const credentialsId = await credentialsFor(owner, 'openai', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const response = await client
      .post('/api/plugins/openai/fetchers/models')
      .json({ workspaceId: owner.workspace.id, options: { credentialsId } })
      .loginAs(owner.user)
      .withCsrfToken()
    response.assertStatus(422)
    response.assertBodyContains({ message: 'Incorrect API key provided.' })
  })

  test('no credentials chosen: the fetcher says so', async ({ client }) => {
    const owner = await newOwner()
    const response = await client
      .post('/api/plugins/open-router/fetchers/models')
      .json({ workspaceId: owner.workspace.id, options: {} })
      .loginAs(owner.user)
      .withCsrfToken()
    response.assertStatus(422)
    response.assertBodyContains({ message: 'No API key provided' })
  })

  test('unknown plugin, undeclared fetcher: 404', async ({ client }) => {
    const owner = await newOwner()
    const call = (path: string) =>
      client
        .post(path)
        .json({ workspaceId: owner.workspace.id, options: {} })
        .loginAs(owner.user)
        .withCsrfToken()
    ;(await call('/api/plugins/nope/fetchers/models')).assertStatus(404)
    // runner.ts exports more than fetchers: only fetchers a field declares can be called.
    ;(await call('/api/plugins/openai/fetchers/streams')).assertStatus(404)
    ;(await call('/api/plugins/http-request/fetchers/models')).assertStatus(404)
  })

  test("another member's credentials and another workspace are out of reach", async ({
    client,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY })
    cleanup(() => standIn.close())
    const owner = await newOwner()
    const credentialsId = await credentialsFor(owner, 'openai', {
      apiKey: KEY,
      baseUrl: standIn.baseUrl,
    })
    const stranger = await createUser()
    const foreign = await client
      .post('/api/plugins/openai/fetchers/models')
      .json({ workspaceId: owner.workspace.id, options: { credentialsId } })
      .loginAs(stranger)
      .withCsrfToken()
    foreign.assertStatus(404)
    // In the stranger's own workspace the owner's credentials are not found either.
    const own = await client
      .post('/api/plugins/openai/fetchers/models')
      .json({ options: { credentialsId } })
      .loginAs(stranger)
      .withCsrfToken()
    own.assertStatus(404)
    own.assertBodyContains({ message: 'Credentials not found' })
    if (standIn.requests.length !== 0) throw new Error('the provider was called')
  })

  test('signed out: refused', async ({ client }) => {
    const response = await client
      .post('/api/plugins/openai/fetchers/models')
      .json({ options: {} })
      .withCsrfToken()
      .redirects(0)
    if (![401, 302].includes(response.status())) {
      throw new Error(`expected a refusal, got ${response.status()}`)
    }
  })
})
