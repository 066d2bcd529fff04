import { test } from '@japa/runner'
import Credential from '#models/credential'
import type User from '#models/user'
import { appUrl } from '#config/app'
import { CreateCredential } from '#actions/credentials/create_credential'
import { readCredentials } from '#services/credentials'
import { OAUTH_CALLBACK_PATH } from '#actions/credentials/oauth'
import { credentialsTabProps } from '#controllers/settings/credentials_controller'
import { encryptCredentials } from '#plugins/vault'
import env from '#start/env'
import { forgetOAuthTokens } from '#sdk/oauth'
import { pluginRegistry } from '#services/plugin_registry'
import { runNodeWith } from '#services/workflows/executor_ports'
import type { NodeRunRequest } from '#engine/workflow/ports'
import type { WorkflowBlock } from '#shared/workflow/types'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { startLinkedInStandIn } from '../../plugins/linkedin/stand_in.js'

/**
 * LinkedIn credentials through the credentials page's Connect, against a stand-in of
 * LinkedIn's OAuth 2 endpoints and REST API: the consent redirect, the code traded for
 * tokens, the LinkedIn node posting with them, and the token renewed when LinkedIn ends it.
 */

const account = {
  memberId: 'x7Fq2LmN',
  name: 'Ada Lovelace',
  validTokens: [] as string[],
  refreshToken: 'AQ-refresh',
  clientId: 'li-client-1',
  clientSecret: 'li-secret-1',
}

type LinkedIn = Awaited<ReturnType<typeof startLinkedInStandIn>>

async function member() {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace }
}

function appCredentials(linkedIn: LinkedIn) {
  return {
    clientId: account.clientId,
    clientSecret: account.clientSecret,
    baseUrl: linkedIn.baseUrl,
    authorizeUrl: linkedIn.authorizeUrl,
    tokenUrl: linkedIn.tokenUrl,
  }
}

/** Connect, the stand-in's consent page (Allow or Cancel) and the callback, as a browser would. */
async function connect(client: any, user: User, credentialId: string, choice = 'allow') {
  const authorize = await client
    .get(`/settings/account/credentials/${credentialId}/oauth`)
    .loginAs(user)
    .redirects(0)
  authorize.assertStatus(302)
  const consent = new URL(authorize.header('location'))
  const pending = authorize.session('credentialOAuth')
  const page = await (await fetch(consent)).text()
  const href = new RegExp(`id="${choice}" href="([^"]+)"`).exec(page)![1].replaceAll('&amp;', '&')
  const back = new URL(href)
  const callback = await client
    .get(`${back.pathname}${back.search}`)
    .loginAs(user)
    .withSession({ credentialOAuth: pending })
    .redirects(0)
  return { consent, pending, back, callback }
}

/** The LinkedIn node of a workflow in the member's workspace, run through the server's ports. */
async function share(who: { user: User; workspace: { id: string } }, credentialsId: string) {
  const block: WorkflowBlock = {
    id: 'post',
    type: 'linkedin',
    graphCoordinates: { x: 0, y: 0 },
    options: {
      action: 'Share a post',
      credentialsId,
      text: 'Connected through the consent page',
      visibility: 'connections',
    },
  }
  const request: NodeRunRequest = {
    workflow: {
      id: 'wf-linkedin',
      workspaceId: who.workspace.id,
      ownerId: who.user.id,
      executable: { blocks: [block], edges: [], root_block: 'post', wait_blocks: [] },
      settings: {},
      variables: [],
    },
    block,
    variables: [],
    signal: new AbortController().signal,
    context: {
      runId: 'run-linkedin',
      workflowId: 'wf-linkedin',
      node: { id: 'post', type: 'linkedin' },
      input: null,
      trigger: 'manual',
      attempt: 1,
      conditions: [],
      evaluateCondition: () => false,
    },
  }
  return runNodeWith(await pluginRegistry(), request)
}

function errorsOf(outcome: Awaited<ReturnType<typeof share>>) {
  return outcome.logs.filter((log) => log.status === 'error').map((log) => log.description)
}

async function storeOAuth(record: Credential, change: Record<string, unknown>) {
  const data = readCredentials(record)
  const encrypted = encryptCredentials(
    { ...data, oauth: { ...(data.oauth as object), ...change } },
    env.get('ENCRYPTION_SECRET')
  )
  await Credential.query().where('id', record.id).update({ iv: encrypted.iv, data: encrypted.data })
}

test.group('LinkedIn OAuth credentials', (group) => {
  group.each.setup(() => forgetOAuthTokens())

  test('Connect signs in with LinkedIn; the node posts with the stored token and renews it when it ends', async ({
    client,
    assert,
    cleanup,
  }) => {
    const linkedIn = await startLinkedInStandIn({ ...account, validTokens: [] })
    cleanup(() => linkedIn.close())
    const who = await member()
    const record = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'linkedin',
      name: 'Company feed',
      data: appCredentials(linkedIn),
    })
    const before = await credentialsTabProps(who.user, who.workspace.id)
    assert.isTrue(before.credentialTypes.find((t) => t.id === 'linkedin')!.oauth)
    assert.isFalse(before.credentials.find((c) => c.id === record.id)!.oauthConnected)

    const { consent, pending, back, callback } = await connect(client, who.user, record.id)
    assert.equal(consent.origin + consent.pathname, linkedIn.authorizeUrl)
    assert.equal(consent.searchParams.get('response_type'), 'code')
    assert.equal(consent.searchParams.get('client_id'), account.clientId)
    assert.equal(consent.searchParams.get('redirect_uri'), `${appUrl}${OAUTH_CALLBACK_PATH}`)
    assert.equal(consent.searchParams.get('scope'), 'openid profile w_member_social')
    assert.equal(consent.searchParams.get('state'), pending.state)
    assert.equal(back.searchParams.get('state'), pending.state)
    callback.assertHeader('location', '/settings/account/credentials')
    callback.assertFlashMessage('toast', {
      type: 'success',
      title: 'Account connected',
      description: 'Company feed',
    })

    // The code was traded at LinkedIn's token endpoint with the app's client.
    assert.lengthOf(linkedIn.grants, 1)
    assert.deepEqual(Object.fromEntries(linkedIn.grants[0]), {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: `${appUrl}${OAUTH_CALLBACK_PATH}`,
      client_id: account.clientId,
      client_secret: account.clientSecret,
    })
    await record.refresh()
    const oauth = readCredentials(record).oauth as {
      accessToken: string
      refreshToken: string
      expiresAt: number
    }
    assert.match(oauth.accessToken, /^AQ/)
    assert.equal(oauth.refreshToken, account.refreshToken)
    assert.isAbove(oauth.expiresAt, Date.now() + 50 * 86_400_000)
    assert.notInclude(record.data, oauth.accessToken)
    const after = await credentialsTabProps(who.user, who.workspace.id)
    assert.isTrue(after.credentials.find((c) => c.id === record.id)!.oauthConnected)
    assert.notInclude(JSON.stringify(after), oauth.accessToken)

    // The credential's Test button asks LinkedIn who the token belongs to.
    const tested = await client
      .post(`/api/credentials/${record.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: true, message: 'Connected as Ada Lovelace.' })

    const first = await share(who, record.id)
    assert.deepEqual(errorsOf(first), [])
    assert.lengthOf(linkedIn.posts, 1)
    assert.equal(linkedIn.posts[0].headers['authorization'], `Bearer ${oauth.accessToken}`)
    assert.equal(linkedIn.posts[0].body.author, `urn:li:person:${account.memberId}`)
    assert.equal(linkedIn.posts[0].body.visibility, 'CONNECTIONS')
    assert.equal((first.result as any).output.postUrn, linkedIn.posts[0].urn)

    // LinkedIn ends the token: the refused call renews it with the stored refresh token.
    linkedIn.revoke(oauth.accessToken)
    const second = await share(who, record.id)
    assert.deepEqual(errorsOf(second), [])
    assert.lengthOf(linkedIn.grants, 2)
    assert.deepEqual(Object.fromEntries(linkedIn.grants[1]), {
      grant_type: 'refresh_token',
      refresh_token: account.refreshToken,
      client_id: account.clientId,
      client_secret: account.clientSecret,
    })
    const renewed = String(linkedIn.posts[1].headers['authorization'])
    assert.notEqual(renewed, `Bearer ${oauth.accessToken}`)

    // After a restart, a stored token past its end is renewed before any call is refused.
    forgetOAuthTokens()
    await storeOAuth(record, { expiresAt: Date.now() - 1000 })
    const callsBefore = linkedIn.requests.length
    const third = await share(who, record.id)
    assert.deepEqual(errorsOf(third), [])
    assert.lengthOf(linkedIn.grants, 3)
    assert.equal(linkedIn.grants[2].get('grant_type'), 'refresh_token')
    // Userinfo and the post, both with the renewed token: none was refused first.
    const calls = linkedIn.requests.slice(callsBefore)
    assert.deepEqual(
      calls.map((call) => call!.path),
      ['/v2/userinfo', '/rest/posts']
    )
    for (const call of calls) {
      assert.notEqual(call!.headers['authorization'], `Bearer ${oauth.accessToken}`)
    }
    assert.lengthOf(linkedIn.posts, 3)
  }).timeout(120_000)

  test('a cancelled consent and a wrong state store nothing; a pasted token works without Connect', async ({
    client,
    assert,
    cleanup,
  }) => {
    const linkedIn = await startLinkedInStandIn({ ...account, validTokens: ['AQ-pasted'] })
    cleanup(() => linkedIn.close())
    const who = await member()
    const record = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'linkedin',
      name: 'Personal',
      data: appCredentials(linkedIn),
    })

    const cancelled = await connect(client, who.user, record.id, 'cancel')
    cancelled.callback.assertFlashMessage('toast', {
      type: 'error',
      title: 'The provider did not grant access',
      description: 'The user cancelled the authorization',
    })
    const forged = await client
      .get(`${OAUTH_CALLBACK_PATH}?code=code-x&state=forged`)
      .loginAs(who.user)
      .withSession({ credentialOAuth: { ...cancelled.pending, startedAt: Date.now() } })
      .redirects(0)
    forged.assertFlashMessage('toast', {
      type: 'error',
      title: 'This connection attempt is unknown or was already used',
      description: 'Start again with Connect on the credentials page.',
    })
    assert.lengthOf(linkedIn.grants, 0)
    await record.refresh()
    assert.isUndefined(readCredentials(record).oauth)
    const unrun = await share(who, record.id)
    assert.match(errorsOf(unrun).join(), /need an access token/)

    // Without an OAuth client, Connect explains what is missing; a pasted token still posts.
    const pasted = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'linkedin',
      name: 'Pasted',
      data: { accessToken: 'AQ-pasted', baseUrl: linkedIn.baseUrl },
    })
    const noClient = await client
      .get(`/settings/account/credentials/${pasted.id}/oauth`)
      .loginAs(who.user)
      .redirects(0)
    noClient.assertFlashMessage('toast', {
      type: 'error',
      title: 'Fill in the OAuth client ID and secret first',
      description: 'Edit the credentials and paste the client of your OAuth app, then Connect.',
    })
    const listed = await credentialsTabProps(who.user, who.workspace.id)
    assert.isTrue(listed.credentials.find((c) => c.id === pasted.id)!.oauthConnected)
    const posted = await share(who, pasted.id)
    assert.deepEqual(errorsOf(posted), [])
    assert.equal(linkedIn.posts[0].headers['authorization'], 'Bearer AQ-pasted')
  }).timeout(120_000)

  test('an app LinkedIn gives no refresh token: an ended token asks for a reconnect', async ({
    client,
    assert,
    cleanup,
  }) => {
    const linkedIn = await startLinkedInStandIn({ ...account, refreshTokens: false })
    cleanup(() => linkedIn.close())
    const who = await member()
    const record = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'linkedin',
      name: 'No refresh',
      data: appCredentials(linkedIn),
    })
    const { callback } = await connect(client, who.user, record.id)
    callback.assertFlashMessage('toast', {
      type: 'success',
      title: 'Account connected',
      description: 'No refresh',
    })
    await record.refresh()
    const oauth = readCredentials(record).oauth as { accessToken: string; refreshToken?: string }
    assert.isUndefined(oauth.refreshToken)
    assert.deepEqual(errorsOf(await share(who, record.id)), [])

    linkedIn.revoke(oauth.accessToken)
    const ended = await share(who, record.id)
    assert.match(errorsOf(ended).join(), /Reconnect the credentials or paste a new token/)
    assert.lengthOf(linkedIn.grants, 1)
  }).timeout(120_000)

  test("without a client of its own, a record signs in with the instance's LinkedIn app from the environment", async ({
    client,
    assert,
    cleanup,
  }) => {
    const linkedIn = await startLinkedInStandIn({ ...account, validTokens: [] })
    cleanup(() => linkedIn.close())
    const names = ['CLIENT_ID', 'CLIENT_SECRET', 'AUTHORIZE_URL', 'TOKEN_URL'].map(
      (name) => `LINKEDIN_${name}`
    )
    const saved = names.map((name) => process.env[name])
    cleanup(() =>
      names.forEach((name, index) => {
        if (saved[index] === undefined) delete process.env[name]
        else process.env[name] = saved[index]
      })
    )
    const who = await member()
    const record = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'linkedin',
      name: 'Instance app',
      data: { baseUrl: linkedIn.baseUrl },
    })
    // Unset, Connect explains what is missing.
    for (const name of names) delete process.env[name]
    const unset = await client
      .get(`/settings/account/credentials/${record.id}/oauth`)
      .loginAs(who.user)
      .redirects(0)
    unset.assertFlashMessage('toast', {
      type: 'error',
      title: 'Fill in the OAuth client ID and secret first',
      description: 'Edit the credentials and paste the client of your OAuth app, then Connect.',
    })

    process.env.LINKEDIN_CLIENT_ID = account.clientId
    process.env.LINKEDIN_CLIENT_SECRET = account.clientSecret
    process.env.LINKEDIN_AUTHORIZE_URL = linkedIn.authorizeUrl
    process.env.LINKEDIN_TOKEN_URL = linkedIn.tokenUrl
    const { consent, callback } = await connect(client, who.user, record.id)
    assert.equal(consent.origin + consent.pathname, linkedIn.authorizeUrl)
    assert.equal(consent.searchParams.get('client_id'), account.clientId)
    assert.equal(consent.searchParams.get('scope'), 'openid profile w_member_social')
    callback.assertFlashMessage('toast', {
      type: 'success',
      title: 'Account connected',
      description: 'Instance app',
    })
    assert.equal(linkedIn.grants[0].get('client_secret'), account.clientSecret)
    await record.refresh()
    const data = readCredentials(record)
    // The instance's client stays in the environment, not in the workspace's record.
    assert.notProperty(data, 'clientId')
    assert.notProperty(data, 'clientSecret')
    const oauth = data.oauth as { accessToken: string }

    const tested = await client
      .post(`/api/credentials/${record.id}/test`)
      .loginAs(who.user)
      .withCsrfToken()
    tested.assertBody({ ok: true, message: 'Connected as Ada Lovelace.' })

    // The refresh goes to the environment's token URL with the environment's client.
    linkedIn.revoke(oauth.accessToken)
    const renewed = await share(who, record.id)
    assert.deepEqual(errorsOf(renewed), [])
    assert.deepEqual(Object.fromEntries(linkedIn.grants[1]), {
      grant_type: 'refresh_token',
      refresh_token: account.refreshToken,
      client_id: account.clientId,
      client_secret: account.clientSecret,
    })
    assert.lengthOf(linkedIn.posts, 1)
  }).timeout(120_000)
})
