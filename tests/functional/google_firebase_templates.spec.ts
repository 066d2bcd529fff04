import { test } from '@japa/runner'
import { generateKeyPairSync } from 'node:crypto'
import type User from '#models/user'
import { forgetGoogleTokens, forgetServiceAccountTokens } from '#sdk/google'
import { runPluginTest } from '#sdk/testing'
import { createUser, firstWorkspaceOf, storeCredential } from '#tests/helpers'
import { startGoogleStandIn, type GoogleStandIn } from '#tests/stand_ins/google'
import Bot from '#models/bot'
import { findTemplate } from '#services/bot_templates'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage } from '#shared/chat/types'
import { brief, FIREBASE, oauthCredentials } from '#tests/functional/google_setup'

test.group('Firebase (Firestore) actions', (group) => {
  let google: GoogleStandIn
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  })
  const email = 'flowcraft@demo-project.iam.gserviceaccount.com'
  const serviceJson = (tokenUri: string, privateKey = keys.privateKey) =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: 'k1',
      private_key: privateKey,
      client_email: email,
      token_uri: tokenUri,
    })

  group.each.setup(async () => {
    google = await startGoogleStandIn()
    forgetServiceAccountTokens()
    google.addServiceAccount(email, keys.publicKey)
    return () => google.close()
  })

  async function member() {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    return { user, workspace }
  }

  async function store(who: { user: User; workspace: { id: string } }, data: object) {
    const owner = { workspaceId: who.workspace.id, userId: who.user.id }
    return (await storeCredential(owner, { type: 'firebase', name: 'Firebase', data })).id
  }

  test('/api/firebase/*: insert, find, update and delete with the stored service account', async ({
    client,
    assert,
  }) => {
    const who = await member()
    const credentialsId = await store(who, {
      serviceJson: serviceJson(google.tokenUrl),
      baseUrl: google.baseUrl,
    })
    const call = (name: string, body: Record<string, unknown>) =>
      client
        .post(`/api/firebase/${name}`)
        .loginAs(who.user)
        .withCsrfToken()
        .json({ workspaceId: who.workspace.id, credentialsId, collection: 'orders', ...body })

    const inserted = await call('insertRecord', {
      fields: [
        { key: 'order', value: '7' },
        { key: 'status', value: 'shipped' },
        { key: 'phone', value: '0612' },
        { key: 'paid', value: 'true' },
      ],
    })
    inserted.assertStatus(200)
    const stored = [...google.firestore.values()][0]
    assert.deepEqual(stored.fields, {
      order: { integerValue: '7' },
      status: { stringValue: 'shipped' },
      phone: { stringValue: '0612' },
      paid: { booleanValue: true },
    })
    await call('insertRecord', {
      fields: [
        { key: 'order', value: '8' },
        { key: 'status', value: 'packing' },
      ],
    })

    const found = await call('findRecord', { conditions: [{ key: 'status', value: 'shipped' }] })
    found.assertStatus(200)
    assert.deepEqual(
      found.body().data.documents.map((d: any) => d.order),
      [7]
    )
    assert.equal(found.body().data.documents[0].id, stored.name.split('/').pop())

    const updated = await call('updateRecord', {
      conditions: [{ key: 'order', value: '8' }],
      fields: [{ key: 'status', value: 'shipped' }],
    })
    assert.deepEqual(updated.body().data, { count: 1 })
    assert.deepInclude(updated.body().logs.map(brief), {
      status: 'success',
      description: 'Record updated successfully',
    })
    const both = await call('findRecord', { conditions: [{ key: 'status', value: 'shipped' }] })
    assert.sameMembers(
      both.body().data.documents.map((d: any) => d.order),
      [7, 8]
    )

    const deleted = await call('deleteRecord', { conditions: [{ key: 'order', value: '7' }] })
    assert.deepInclude(deleted.body().logs.map(brief), {
      status: 'success',
      description: 'Record deleted successfully',
    })
    assert.equal(google.firestore.size, 1)
    const none = await call('deleteRecord', { conditions: [{ key: 'order', value: '7' }] })
    assert.deepInclude(none.body().logs.map(brief), {
      status: 'info',
      description: 'No matching documents found in the collection',
    })
    // One signed token request served every call.
    assert.equal(google.stats.jwtGrants, 1)
    const tokenRequest = google.requests.find((r) => r.path === '/token')!
    const assertion = new URLSearchParams(tokenRequest.body).get('assertion')!
    const claims = JSON.parse(Buffer.from(assertion.split('.')[1], 'base64url').toString())
    assert.equal(claims.iss, email)
    assert.equal(claims.scope, 'https://www.googleapis.com/auth/datastore')

    const stranger = await member()
    const refused = await client
      .post('/api/firebase/findRecord')
      .loginAs(stranger.user)
      .withCsrfToken()
      .json({ workspaceId: who.workspace.id, credentialsId, collection: 'orders' })
    refused.assertStatus(404)
  })

  test('a bot maps the found fields; the empty-fields rules and a refused key', async ({
    assert,
  }) => {
    const credentials = { serviceJson: serviceJson(google.tokenUrl), baseUrl: google.baseUrl }
    const run = (action: string, options: Record<string, unknown>, key?: string) =>
      runPluginTest({
        folder: FIREBASE,
        surface: 'bot',
        action,
        credentials: key
          ? { ...credentials, serviceJson: serviceJson(google.tokenUrl, key) }
          : credentials,
        options: { collection: 'customers', ...options },
        variables: [
          { id: 'v_email', name: 'Email', value: 'ada@example.com' },
          { id: 'v_name', name: 'Name' },
          { id: 'v_other', name: 'Other' },
        ],
      })
    await run('Insert record', {
      fields: [
        { key: 'email', value: '{{Email}}' },
        { key: 'name', value: 'Ada' },
      ],
    })
    const found = await run('Find records', {
      conditions: [{ key: 'email', value: '{{Email}}' }],
      responseMapping: [
        { field: 'name', variableId: 'v_name' },
        { field: 'age', variableId: 'v_other' },
      ],
    })
    assert.deepEqual(found.variablesSet, [{ id: 'v_name', value: 'Ada' }])
    assert.deepInclude(found.logs.map(brief), {
      status: 'info',
      description: 'Field age does not exist in the document',
    })
    const nobody = await run('Find records', { conditions: [{ key: 'email', value: 'x@y.z' }] })
    assert.deepInclude(nobody.logs.map(brief), {
      status: 'info',
      description: 'No matching documents found in the collection',
    })

    // Spec: insert and update need fields, update and delete need conditions; else nothing.
    const before = google.requests.length
    assert.deepEqual((await run('Insert record', { fields: [] })).logs, [])
    assert.deepEqual((await run('Update records', { fields: [{ key: 'a', value: '1' }] })).logs, [])
    assert.deepEqual((await run('Delete records', { conditions: [] })).logs, [])
    assert.equal(google.requests.length, before)

    forgetServiceAccountTokens()
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    })
    const refused = await run('Find records', {}, other.privateKey)
    assert.deepEqual(refused.errors, ['Find failed'])
    assert.include(
      JSON.stringify(refused.logs),
      'Google refused the service account: Invalid JWT Signature.'
    )
    const broken = await runPluginTest({
      folder: FIREBASE,
      surface: 'bot',
      action: 'Find records',
      credentials: { serviceJson: '{"project_id":"p"}', baseUrl: google.baseUrl },
      options: { collection: 'customers' },
    })
    assert.include(
      JSON.stringify(broken.logs),
      'The service account JSON has no client_email, private_key'
    )
  })
})

test.group('Template: order status from Google Sheets', (group) => {
  let google: GoogleStandIn
  group.each.setup(async () => {
    google = await startGoogleStandIn()
    forgetGoogleTokens()
    return () => google.close()
  })

  test('with the account connected and the sheet linked, the bot answers from the sheet', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const credential = await storeCredential(
      { workspaceId: workspace.id, userId: user.id },
      { type: 'Google Sheets', name: 'Shop', data: oauthCredentials(google) }
    )
    google.spreadsheets.set('shop-orders', [
      {
        sheetId: 0,
        title: 'Orders',
        values: [
          ['Order', 'Status', 'Delivery'],
          ['1041', 'Delivered', '2030-01-02'],
          ['1042', 'On its way', '2030-01-05'],
        ],
      },
    ])

    const template = (await findTemplate('order-status-sheets'))!
    const bot = structuredClone(template.bot) as any
    const block = bot.groups
      .flatMap((g: any) => g.blocks)
      .find((b: any) => b.type === 'Google Sheets')
    assert.equal(block.options.action, 'Get data from sheet')
    block.options = {
      ...block.options,
      credentialsId: credential.id,
      spreadsheetId: 'https://docs.google.com/spreadsheets/d/shop-orders/edit',
    }
    const token = (await new CreateApiToken().handle(user, `sheets-${Date.now()}`)).value
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: { ...bot, id: undefined } })
    imported.assertStatus(201)
    const botId = imported.body().bot.id
    ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)).assertStatus(200)
    const publicId = (await Bot.findOrFail(botId)).publicId

    const texts = (messages: ChatMessage[]) => messages.map(messageText).join(' ')
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    assert.include(texts(start.body().messages), 'What is your order number?')
    const session = start.body().sessionId
    const say = (message: string) =>
      client.post(`/api/v1/sessions/${session}/continueChat`).json({ message })
    const found = await say('1042')
    found.assertStatus(200)
    assert.include(
      texts(found.body().messages),
      'Order 1042: On its way. Expected delivery: 2030-01-05.'
    )

    const again = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    const missing = await client
      .post(`/api/v1/sessions/${again.body().sessionId}/continueChat`)
      .json({ message: '9999' })
    assert.include(texts(missing.body().messages), "I couldn't find order 9999.")
    // Back to the question: the visitor may try another number.
    assert.include(texts(missing.body().messages), 'What is your order number?')
  })
})
