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
import { forgetGoogleTokens } from '#sdk/google'
import { botWithVariables, createUser, firstWorkspaceOf } from '#tests/helpers'
import { startGoogleStandIn, type GoogleStandIn } from '#tests/stand_ins/google'

/**
 * OAuth credentials through the credentials page, against a stand-in of Google: Connect
 * sends the builder to the consent page, the callback stores the tokens encrypted, a Google
 * Sheets block reads with them, and an expired access token is refreshed.
 */

async function member() {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace }
}

function sheetsCredentials(google: GoogleStandIn) {
  return {
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    baseUrl: google.baseUrl,
    authorizeUrl: google.authorizeUrl,
    tokenUrl: google.tokenUrl,
  }
}

function orderBot(who: { user: User; workspace: { id: string } }) {
  return botWithVariables({ workspaceId: who.workspace.id, userId: who.user.id }, [
    { id: 'v_order', name: 'Order' },
    { id: 'v_status', name: 'Status' },
  ])
}

test.group('Google OAuth credentials', (group) => {
  let google: GoogleStandIn
  group.each.setup(async () => {
    google = await startGoogleStandIn()
    forgetGoogleTokens()
    return () => google.close()
  })

  /** Connect, the consent page (granting at once) and the callback, as a browser would. */
  async function connect(client: any, user: User, credentialId: string) {
    const authorize = await client
      .get(`/settings/account/credentials/${credentialId}/oauth`)
      .loginAs(user)
      .redirects(0)
    authorize.assertStatus(302)
    const consent = new URL(authorize.header('location'))
    const pending = authorize.session('credentialOAuth')
    const granted = await fetch(consent, { redirect: 'manual' })
    const back = new URL(granted.headers.get('location')!)
    const callback = await client
      .get(`${back.pathname}${back.search}`)
      .loginAs(user)
      .withSession({ credentialOAuth: pending })
      .redirects(0)
    return { authorize, consent, pending, back, callback }
  }

  test('Connect stores the tokens encrypted; a Sheets block reads with them and refreshes them', async ({
    client,
    assert,
  }) => {
    const who = await member()
    const record = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'Google Sheets',
      name: 'Sales sheets',
      data: sheetsCredentials(google),
    })
    const before = await credentialsTabProps(who.user, who.workspace.id)
    assert.isFalse(before.credentials.find((c) => c.id === record.id)!.oauthConnected)
    assert.isTrue(before.credentialTypes.find((t) => t.id === 'Google Sheets')!.oauth)

    const { consent, pending, back, callback } = await connect(client, who.user, record.id)
    assert.equal(consent.origin + consent.pathname, google.authorizeUrl)
    assert.equal(consent.searchParams.get('client_id'), google.clientId)
    assert.equal(consent.searchParams.get('response_type'), 'code')
    assert.equal(consent.searchParams.get('scope'), 'https://www.googleapis.com/auth/spreadsheets')
    assert.equal(consent.searchParams.get('access_type'), 'offline')
    assert.equal(consent.searchParams.get('redirect_uri'), `${appUrl}${OAUTH_CALLBACK_PATH}`)
    assert.equal(consent.searchParams.get('state'), pending.state)
    assert.equal(back.pathname, OAUTH_CALLBACK_PATH)
    callback.assertHeader('location', '/settings/account/credentials')
    callback.assertFlashMessage('toast', {
      type: 'success',
      title: 'Account connected',
      description: 'Sales sheets',
    })
    assert.equal(google.stats.codeGrants, 1)

    await record.refresh()
    const data = readCredentials(record)
    const oauth = data.oauth as { accessToken: string; refreshToken: string; expiresAt: number }
    assert.match(oauth.accessToken, /^ya29\./)
    assert.match(oauth.refreshToken, /^1\/\/refresh-/)
    assert.isAbove(oauth.expiresAt, Date.now())
    // Encrypted at rest: the stored column holds neither token.
    assert.notInclude(record.data, oauth.accessToken)
    assert.notInclude(record.data, oauth.refreshToken)
    const after = await credentialsTabProps(who.user, who.workspace.id)
    const listed = after.credentials.find((c) => c.id === record.id)!
    assert.isTrue(listed.oauthConnected)
    assert.notInclude(JSON.stringify(after), oauth.accessToken)

    // Editing the client keeps the connection.
    await client
      .patch(`/settings/account/credentials/${record.id}`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ name: 'Sales', data: { clientSecret: '' } })
    await record.refresh()
    assert.equal((readCredentials(record).oauth as any).refreshToken, oauth.refreshToken)

    google.spreadsheets.set('sheet-1', [
      {
        sheetId: 0,
        title: 'Orders',
        values: [
          ['Order', 'Status'],
          ['7', 'shipped'],
          ['8', 'packing'],
        ],
      },
    ])
    const bot = await orderBot(who)
    const testBlock = () =>
      client
        .post(`/api/bots/${bot.id}/blocks/test`)
        .loginAs(who.user)
        .withCsrfToken()
        .json({
          type: 'Google Sheets',
          options: {
            action: 'Get data from sheet',
            credentialsId: record.id,
            spreadsheetId: 'https://docs.google.com/spreadsheets/d/sheet-1/edit#gid=0',
            filter: [{ column: 'Order', comparisonOperator: 'Equal to', value: '{{Order}}' }],
            responseMapping: [{ field: 'Status', variableId: 'v_status' }],
          },
          values: { v_order: '8' },
        })
    const first = await testBlock()
    first.assertStatus(200)
    assert.deepEqual(first.body().variablesSet, [
      { id: 'v_status', name: 'Status', value: 'packing' },
    ])
    assert.equal(google.stats.refreshes, 0)

    // Google ends the access token: the refused call refreshes it and goes through.
    google.expireAll()
    const second = await testBlock()
    assert.deepEqual(second.body().variablesSet, [
      { id: 'v_status', name: 'Status', value: 'packing' },
    ])
    assert.equal(google.stats.refreshes, 1)

    // After a restart, a stored token past its expiry is refreshed before the call.
    forgetGoogleTokens()
    const stale = readCredentials(record)
    const encrypted = encryptCredentials(
      { ...stale, oauth: { ...(stale.oauth as object), expiresAt: Date.now() - 1000 } },
      env.get('ENCRYPTION_SECRET')
    )
    await Credential.query()
      .where('id', record.id)
      .update({ iv: encrypted.iv, data: encrypted.data })
    const apiCallsBefore = google.requests.filter((r) => r.path.startsWith('/v4/')).length
    const third = await testBlock()
    assert.deepEqual(third.body().variablesSet, [
      { id: 'v_status', name: 'Status', value: 'packing' },
    ])
    assert.equal(google.stats.refreshes, 2)
    // No refused call first: metadata and values, two calls.
    assert.equal(
      google.requests.filter((r) => r.path.startsWith('/v4/')).length - apiCallsBefore,
      2
    )
    // The first block test of a fresh process loads the editor's plugins: slow on a busy machine.
  }).timeout(120_000)

  test('a refused consent, a replayed state and a bad client say so and store nothing', async ({
    client,
    assert,
  }) => {
    const who = await member()
    const record = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'google-calendar',
      name: 'Team calendar',
      data: sheetsCredentials(google),
    })

    google.state.deny = true
    const denied = await connect(client, who.user, record.id)
    assert.equal(
      denied.consent.searchParams.get('scope'),
      'https://www.googleapis.com/auth/calendar.events'
    )
    denied.callback.assertHeader('location', '/settings/account/credentials')
    denied.callback.assertFlashMessage('toast', {
      type: 'error',
      title: 'The provider did not grant access',
      description: 'access_denied',
    })
    google.state.deny = false

    const granted = await connect(client, who.user, record.id)
    granted.callback.assertFlashMessage('toast', {
      type: 'success',
      title: 'Account connected',
      description: 'Team calendar',
    })
    // The same answer again: its state was used up with the session's.
    const replay = await client
      .get(`${granted.back.pathname}${granted.back.search}`)
      .loginAs(who.user)
      .redirects(0)
    replay.assertFlashMessage('toast', {
      type: 'error',
      title: 'This connection attempt is unknown or was already used',
      description: 'Start again with Connect on the credentials page.',
    })
    // A state that is not the session's.
    const forged = await client
      .get(`${OAUTH_CALLBACK_PATH}?code=x&state=forged`)
      .loginAs(who.user)
      .withSession({ credentialOAuth: { ...granted.pending, startedAt: Date.now() } })
      .redirects(0)
    forged.assertFlashMessage('toast', {
      type: 'error',
      title: 'This connection attempt is unknown or was already used',
      description: 'Start again with Connect on the credentials page.',
    })
    assert.equal(google.stats.codeGrants, 1)

    // A wrong client secret: Google's refusal is shown, the old tokens stay.
    await record.refresh()
    const tokens = readCredentials(record).oauth
    const wrong = encryptCredentials(
      { ...readCredentials(record), clientSecret: 'wrong' },
      env.get('ENCRYPTION_SECRET')
    )
    await Credential.query().where('id', record.id).update({ iv: wrong.iv, data: wrong.data })
    const refused = await connect(client, who.user, record.id)
    refused.callback.assertFlashMessage('toast', {
      type: 'error',
      title: 'The provider refused the authorization code',
      description: 'The OAuth client was not found.',
    })
    await record.refresh()
    assert.deepEqual(readCredentials(record).oauth, tokens)
  })

  test('Connect is offered for OAuth kinds only, to members who may edit', async ({
    client,
    assert,
  }) => {
    const who = await member()
    const postgres = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'postgres',
      name: 'Db',
      data: { url: 'postgres://u@127.0.0.1/x' },
    })
    const notOAuth = await client
      .get(`/settings/account/credentials/${postgres.id}/oauth`)
      .loginAs(who.user)
      .redirects(0)
    notOAuth.assertFlashMessage('toast', {
      type: 'error',
      title: 'These credentials do not connect through OAuth',
    })

    const sheets = await new CreateCredential().handle(who.user, who.workspace as any, {
      type: 'Google Sheets',
      name: 'Sheets',
      data: sheetsCredentials(google),
    })
    const stranger = await member()
    const refused = await client
      .get(`/settings/account/credentials/${sheets.id}/oauth`)
      .loginAs(stranger.user)
      .redirects(0)
    refused.assertStatus(404)
    const anonymous = await client
      .get(`/settings/account/credentials/${sheets.id}/oauth`)
      .redirects(0)
    assert.notEqual(anonymous.status(), 200)
    assert.notInclude(String(anonymous.header('location') ?? ''), google.baseUrl)
  })
})
