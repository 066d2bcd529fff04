import { test } from '@japa/runner'
import env from '#start/env'
import Credential from '#models/credential'
import WorkspaceMember from '#models/workspace_member'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'

const SECRET = 'sk-test-0123456789abcdef'

test.group('Credentials', (group) => {
  let openai: Awaited<ReturnType<typeof startOpenAiStandIn>>
  group.setup(async () => {
    openai = await startOpenAiStandIn({ apiKey: SECRET })
    return () => openai.close()
  })

  test('create through the API: encrypted at rest, never answered back', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateApiToken } = await import('#actions/api_tokens/create_api_token')
    const { value } = await new CreateApiToken().handle(user, 'creds')

    const created = await client
      .post('/api/v1/credentials')
      .bearerToken(value)
      .json({
        workspaceId: workspace.id,
        type: 'openai',
        name: 'My key',
        data: { apiKey: SECRET, baseUrl: openai.baseUrl },
      })
    created.assertStatus(201)
    assert.deepEqual(Object.keys(created.body()).sort(), ['createdAt', 'id', 'name', 'type'])
    assert.notInclude(JSON.stringify(created.body()), SECRET)

    const row = await Credential.findOrFail(created.body().id)
    assert.notInclude(row.data, SECRET)
    assert.notInclude(row.data, 'sk-test')
    assert.lengthOf(Buffer.from(row.iv, 'base64'), 12)

    const listed = await client
      .get(`/api/v1/workspaces/${workspace.id}/credentials`)
      .bearerToken(value)
    listed.assertStatus(200)
    assert.lengthOf(listed.body().credentials, 1)
    assert.notInclude(JSON.stringify(listed.body()), SECRET)

    const page = await client.get('/settings/account/credentials').loginAs(user).withInertia()
    page.assertInertiaComponent('settings/index')
    assert.notInclude(JSON.stringify(page.inertiaProps), SECRET)
    const shown = page.inertiaProps.credentials[0]
    assert.deepEqual(shown.secrets, { apiKey: 'set' })
    assert.equal(shown.values.baseUrl, openai.baseUrl)
    const openaiType = page.inertiaProps.credentialTypes.find((t: any) => t.id === 'openai')
    assert.isTrue(openaiType.hasTest)
    assert.equal(openaiType.scope, 'user')

    const deleted = await client.delete(`/api/v1/credentials/${row.id}`).bearerToken(value)
    deleted.assertStatus(204)
    assert.isNull(await Credential.find(row.id))
  })

  test('bad input: unknown type, missing required secret', async ({ client }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateApiToken } = await import('#actions/api_tokens/create_api_token')
    const { value } = await new CreateApiToken().handle(user, 'creds')
    const unknown = await client
      .post('/api/v1/credentials')
      .bearerToken(value)
      .json({ workspaceId: workspace.id, type: 'nope', name: 'x', data: {} })
    unknown.assertStatus(422)
    unknown.assertBodyContains({ message: 'Unknown credentials type' })
    const missing = await client
      .post('/api/v1/credentials')
      .bearerToken(value)
      .json({ workspaceId: workspace.id, type: 'openai', name: 'x', data: {} })
    missing.assertStatus(422)
    missing.assertBodyContains({ errors: [{ field: 'apiKey' }] })
    // A new address pasted after the default one, and an address without its scheme.
    for (const baseUrl of [
      'https://api.openai.com/v1http://localhost:8098/v1',
      'localhost:8098/v1',
    ]) {
      const wrongUrl = await client
        .post('/api/v1/credentials')
        .bearerToken(value)
        .json({
          workspaceId: workspace.id,
          type: 'openai',
          name: 'x',
          data: { apiKey: 'k', baseUrl },
        })
      wrongUrl.assertStatus(422)
      wrongUrl.assertBodyContains({ errors: [{ field: 'baseUrl' }] })
    }
    const rightUrl = await client
      .post('/api/v1/credentials')
      .bearerToken(value)
      .json({
        workspaceId: workspace.id,
        type: 'openai',
        name: 'x',
        data: { apiKey: 'k', baseUrl: 'http://ollama.lan:11434/v1' },
      })
    rightUrl.assertStatus(201)
  })

  test('test against the local stand-in: a good key passes, a wrong key fails', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateCredential } = await import('#actions/credentials/create_credential')
    const good = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'good',
      data: { apiKey: SECRET, baseUrl: openai.baseUrl },
    })
    const bad = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'bad',
      data: { apiKey: 'sk-wrong', baseUrl: openai.baseUrl },
    })
    const ok = await client.post(`/api/credentials/${good.id}/test`).loginAs(user).withCsrfToken()
    ok.assertStatus(200)
    ok.assertBody({ ok: true, message: 'Connected: 3 models available.' })
    assert.equal(openai.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`)

    const ko = await client.post(`/api/credentials/${bad.id}/test`).loginAs(user).withCsrfToken()
    ko.assertBodyContains({ ok: false })
    assert.match(ko.body().message, /Incorrect API key provided/)
  })

  test('the guarded client refuses internal addresses unless ALLOW_INTERNAL_HTTP', async ({
    client,
    assert,
    cleanup,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateCredential } = await import('#actions/credentials/create_credential')
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'internal',
      data: { apiKey: SECRET, baseUrl: openai.baseUrl },
    })
    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => env.set('ALLOW_INTERNAL_HTTP', true))
    const refused = await client
      .post(`/api/credentials/${record.id}/test`)
      .loginAs(user)
      .withCsrfToken()
    assert.isFalse(refused.body().ok)
    assert.match(refused.body().message, /internal|private|loopback/i)
  })

  test('rename and update keep a secret left empty; delete', async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateCredential } = await import('#actions/credentials/create_credential')
    const { readCredentials } = await import('#services/credentials')
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'old',
      data: { apiKey: SECRET, baseUrl: openai.baseUrl },
    })
    await client
      .patch(`/settings/account/credentials/${record.id}`)
      .json({ name: 'new', data: { apiKey: '', baseUrl: 'https://example.com/v1' } })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    await record.refresh()
    assert.equal(record.name, 'new')
    assert.deepInclude(readCredentials(record), {
      apiKey: SECRET,
      baseUrl: 'https://example.com/v1',
    })

    await client
      .delete(`/settings/account/credentials/${record.id}`)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    assert.isNull(await Credential.find(record.id))
  })

  test('user-scoped credentials are seen only by their creator; guests cannot create', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const colleague = await createUser()
    const guest = await createUser()
    await WorkspaceMember.create({
      workspaceId: workspace.id,
      userId: colleague.id,
      role: 'MEMBER',
    })
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const { CreateCredential } = await import('#actions/credentials/create_credential')
    const record = await new CreateCredential().handle(owner, workspace, {
      type: 'openai',
      name: 'mine',
      data: { apiKey: SECRET },
    })
    const seen = await client
      .get(`/settings/account/credentials?workspaceId=${workspace.id}`)
      .loginAs(colleague)
      .withInertia()
    assert.lengthOf(seen.inertiaProps.credentials, 0)
    const tried = await client
      .post(`/api/credentials/${record.id}/test`)
      .loginAs(colleague)
      .withCsrfToken()
    tried.assertStatus(404)

    const { CreateApiToken } = await import('#actions/api_tokens/create_api_token')
    const { value } = await new CreateApiToken().handle(guest, 'guest')
    const refused = await client
      .post('/api/v1/credentials')
      .bearerToken(value)
      .json({ workspaceId: workspace.id, type: 'openai', name: 'x', data: { apiKey: 'k' } })
    refused.assertStatus(403)

    const stranger = await createUser()
    const { value: strangerToken } = await new CreateApiToken().handle(stranger, 's')
    const hidden = await client
      .get(`/api/v1/workspaces/${workspace.id}/credentials`)
      .bearerToken(strangerToken)
    hidden.assertStatus(404)
  })
})
