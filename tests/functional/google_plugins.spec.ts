import { test } from '@japa/runner'
import { generateKeyPairSync } from 'node:crypto'
import type User from '#models/user'
import { validatorFor } from '#plugins/derive'
import { forgetGoogleTokens, forgetServiceAccountTokens } from '#sdk/google'
import { runPluginTest } from '#sdk/testing'
import { createUser, firstWorkspaceOf, storeCredential } from '#tests/helpers'
import { startGoogleStandIn, type GoogleStandIn } from '#tests/stand_ins/google'
import Bot from '#models/bot'
import { findTemplate } from '#services/bot_templates'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage } from '#shared/chat/types'
import calendarPlugin from '../../plugins/google-calendar/index.js'

/**
 * Each action of the Google Sheets, Google Calendar and Firebase plugins against the Google
 * stand-in (Sheets v4, Calendar v3, Firestore v1 and the token endpoint), with the spec's
 * messages.
 */

/** A log entry as the assertions name it. */
const brief = (log: { status: string; description: string }) => ({
  status: log.status,
  description: log.description,
})

const SHEETS = new URL('../../plugins/google-sheets/', import.meta.url)
const CALENDAR = new URL('../../plugins/google-calendar/', import.meta.url)
const FIREBASE = new URL('../../plugins/firebase/', import.meta.url)

function oauthCredentials(google: GoogleStandIn) {
  return {
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    baseUrl: google.baseUrl,
    tokenUrl: google.tokenUrl,
    oauth: { ...google.connect(), expiresAt: Date.now() + 3600_000, connectedAt: 'now' },
  }
}

const ORDERS = () => [
  ['Order', 'Name', 'Status', 'Total'],
  ['7', 'Ada', 'shipped', '120'],
  ['8', 'Linus', 'packing', '35'],
  ['9', 'Grace', 'shipped', '80'],
  ['10', 'Alan', 'cancelled', '15'],
]

test.group('Google Sheets actions', (group) => {
  let google: GoogleStandIn
  let credentials: ReturnType<typeof oauthCredentials>
  group.each.setup(async () => {
    google = await startGoogleStandIn()
    forgetGoogleTokens()
    credentials = oauthCredentials(google)
    google.spreadsheets.set('book', [
      { sheetId: 0, title: 'Notes', values: [['Note'], ['first tab']] },
      { sheetId: 42, title: "Q1's orders", values: ORDERS() },
    ])
    return () => google.close()
  })

  const getData = (options: Record<string, unknown>, surface: 'bot' | 'workflow' = 'bot') =>
    runPluginTest({
      folder: SHEETS,
      surface,
      action: 'Get data from sheet',
      credentials,
      options: { spreadsheetId: 'book', sheetName: "Q1's orders", ...options },
      variables: [
        { id: 'v_name', name: 'Name' },
        { id: 'v_status', name: 'Status' },
        { id: 'v_min', name: 'Min', value: '50' },
      ],
    })

  test('Get data: rows to extract All, First, Last, Random, Custom and Range', async ({
    assert,
  }) => {
    const names = async (options: Record<string, unknown>) =>
      ((await getData(options, 'workflow')).output as any).rows.map((row: any) => row.Name)
    assert.deepEqual(await names({ totalRowsToExtract: 'All' }), ['Ada', 'Linus', 'Grace', 'Alan'])
    assert.deepEqual(await names({ totalRowsToExtract: 'First' }), ['Ada'])
    assert.deepEqual(await names({ totalRowsToExtract: 'Last' }), ['Alan'])
    assert.deepEqual(await names({ totalRowsToExtract: 'Custom', rowIndex: 2 }), ['Grace'])
    assert.deepEqual(await names({ totalRowsToExtract: 'Range', startIndex: 1, limit: 2 }), [
      'Linus',
      'Grace',
    ])
    const random = await names({ totalRowsToExtract: 'Random' })
    assert.lengthOf(random, 1)
    assert.include(['Ada', 'Linus', 'Grace', 'Alan'], random[0])

    // The tab is found by its name (quotes included), or by Typebot's stored gid.
    const byGid = await runPluginTest({
      folder: SHEETS,
      surface: 'workflow',
      action: 'Get data from sheet',
      credentials,
      options: { spreadsheetId: 'book', sheetId: 42, totalRowsToExtract: 'First' },
    })
    assert.equal((byGid.output as any).rows[0].Name, 'Ada')
    const firstTab = await runPluginTest({
      folder: SHEETS,
      surface: 'workflow',
      action: 'Get data from sheet',
      credentials,
      options: { spreadsheetId: 'book' },
    })
    assert.deepEqual((firstTab.output as any).rows, [{ Note: 'first tab' }])
  })

  test('Get data: filters with AND / OR map the columns into variables', async ({ assert }) => {
    const shipped = await getData({
      filter: [
        { column: 'Status', comparisonOperator: 'Equal to', value: 'shipped' },
        { column: 'Total', comparisonOperator: 'Greater than', value: '{{Min}}' },
      ],
      responseMapping: [
        { field: 'Name', variableId: 'v_name' },
        { field: 'Missing', variableId: 'v_status' },
      ],
    })
    assert.deepEqual(shipped.variablesSet, [{ id: 'v_name', value: ['Ada', 'Grace'] }])
    assert.deepInclude(shipped.logs.map(brief), {
      status: 'info',
      description: 'Field Missing does not exist in the sheet',
    })

    const either = await getData({
      logicalOperator: 'OR',
      filter: [
        { column: 'Name', comparisonOperator: 'Starts with', value: 'lin' },
        { column: 'Status', comparisonOperator: 'Contains', value: 'cancel' },
      ],
      totalRowsToExtract: 'Last',
      responseMapping: [{ field: 'Name', variableId: 'v_name' }],
    })
    assert.deepEqual(either.variablesSet, [{ id: 'v_name', value: 'Alan' }])

    const none = await getData({
      filter: [{ column: 'Status', comparisonOperator: 'Equal to', value: 'lost' }],
    })
    assert.deepInclude(none.logs.map(brief), {
      status: 'info',
      description: "Couldn't find any rows matching the filter",
    })
    assert.deepEqual(none.variablesSet, [])

    const missingTab = await getData({ sheetName: 'Nope' })
    assert.deepEqual(missingTab.errors, ['Get data failed'])
    assert.include(JSON.stringify(missingTab.logs), 'The spreadsheet has no sheet named \\"Nope\\"')
    const missingBook = await getData({ spreadsheetId: 'nope' })
    assert.include(
      JSON.stringify(missingBook.logs),
      'Google Sheets answered 404: Requested entity was not found.'
    )
  })

  test('Insert a row: appended, or at an index; unknown columns are reported', async ({
    assert,
  }) => {
    const insert = (options: Record<string, unknown>) =>
      runPluginTest({
        folder: SHEETS,
        surface: 'bot',
        action: 'Insert a row',
        credentials,
        options: { spreadsheetId: 'book', sheetName: "Q1's orders", ...options },
        variables: [{ id: 'v_name', name: 'Name', value: 'Edsger' }],
      })
    const appended = await insert({
      cellsToInsert: [
        { key: 'Order', value: '11' },
        { key: 'Name', value: '{{Name}}' },
        { key: 'Colour', value: 'blue' },
      ],
    })
    assert.deepInclude(appended.logs.map(brief), {
      status: 'success',
      description: 'Record added successfully',
    })
    assert.deepInclude(appended.logs.map(brief), {
      status: 'info',
      description: 'Field Colour does not exist in the sheet',
    })
    const tab = () => google.spreadsheets.get('book')![1].values
    assert.deepEqual(tab().at(-1), ['11', 'Edsger', '', ''])

    const atIndex = await insert({ cellsToInsert: [{ key: 'Order', value: '1' }], insertIndex: 0 })
    assert.deepEqual(atIndex.errors, [])
    assert.deepEqual(tab()[1], ['1', '', '', ''])
    assert.deepEqual(tab()[2], ORDERS()[1])

    const nothing = await insert({ cellsToInsert: [{ key: 'Order', value: '' }] })
    assert.deepEqual(nothing.logs, [])
    const onlyUnknown = await insert({ cellsToInsert: [{ key: 'Colour', value: 'red' }] })
    assert.deepEqual(onlyUnknown.errors, ['Insert failed'])
  })

  test('Update a row: the rows the filter finds; none found says so', async ({ assert }) => {
    const update = (options: Record<string, unknown>) =>
      runPluginTest({
        folder: SHEETS,
        surface: 'workflow',
        action: 'Update a row',
        credentials,
        options: { spreadsheetId: 'book', sheetName: "Q1's orders", ...options },
      })
    const done = await update({
      filter: [{ column: 'Status', comparisonOperator: 'Equal to', value: 'shipped' }],
      cellsToUpsert: [{ key: 'Status', value: 'delivered' }],
    })
    assert.deepEqual(done.output, { rowCount: 2 })
    assert.deepInclude(done.logs.map(brief), {
      status: 'success',
      description: 'Record updated successfully',
    })
    const values = google.spreadsheets.get('book')![1].values
    assert.deepEqual(values[1], ['7', 'Ada', 'delivered', '120'])
    assert.deepEqual(values[2], ['8', 'Linus', 'packing', '35'])
    assert.deepEqual(values[3], ['9', 'Grace', 'delivered', '80'])

    const none = await update({
      filter: [{ column: 'Order', comparisonOperator: 'Equal to', value: '99' }],
      cellsToUpsert: [{ key: 'Status', value: 'x' }],
    })
    assert.deepInclude(none.logs.map(brief), {
      status: 'info',
      description: "Couldn't find any rows matching the filter",
    })
    // Without a filter nothing is written (like the database blocks).
    const unfiltered = await update({ cellsToUpsert: [{ key: 'Status', value: 'x' }] })
    assert.deepEqual(unfiltered.logs, [])
    assert.notInclude(values.flat(), 'x')
  })

  test('workflow only: Append rows from the input, Clear sheet keeping the header', async ({
    assert,
  }) => {
    const appended = await runPluginTest({
      folder: SHEETS,
      surface: 'workflow',
      action: 'Append rows',
      credentials,
      options: { spreadsheetId: 'book', sheetName: "Q1's orders" },
      input: [
        { Order: 12, Name: 'Barbara', Total: 9.5 },
        { Order: 13, Status: 'new' },
      ],
    })
    assert.deepEqual(appended.output, { rowCount: 2 })
    const values = () => google.spreadsheets.get('book')![1].values
    assert.deepEqual(values().slice(-2), [
      ['12', 'Barbara', '', '9.5'],
      ['13', '', 'new', ''],
    ])
    const bad = await runPluginTest({
      folder: SHEETS,
      surface: 'workflow',
      action: 'Append rows',
      credentials,
      options: { spreadsheetId: 'book', rows: 'not json' },
    })
    assert.deepEqual(bad.errors, ['Append failed'])

    const cleared = await runPluginTest({
      folder: SHEETS,
      surface: 'workflow',
      action: 'Clear sheet',
      credentials,
      options: { spreadsheetId: 'book', sheetName: "Q1's orders", keepHeader: true },
    })
    assert.deepInclude(cleared.logs.map(brief), {
      status: 'success',
      description: `Sheet "Q1's orders" cleared`,
    })
    assert.deepEqual(values(), [ORDERS()[0]])
  })
})

test.group('Google Calendar actions', (group) => {
  let google: GoogleStandIn
  let credentials: ReturnType<typeof oauthCredentials>
  group.each.setup(async () => {
    google = await startGoogleStandIn()
    forgetGoogleTokens()
    credentials = oauthCredentials(google)
    google.calendars.set('primary', [
      {
        id: 'ev1',
        summary: 'Standup',
        start: { dateTime: '2030-01-01T09:00:00Z' },
        end: { dateTime: '2030-01-01T09:15:00Z' },
      },
      {
        id: 'ev2',
        summary: 'Review',
        start: { dateTime: '2030-01-02T14:00:00Z' },
        end: { dateTime: '2030-01-02T15:00:00Z' },
      },
    ])
    return () => google.close()
  })

  const run = (action: string, options: Record<string, unknown>) =>
    runPluginTest({ folder: CALENDAR, surface: 'workflow', action, credentials, options })

  test('List events: maxResults up to 250, search text', async ({ assert }) => {
    const all = await run('List events', { calendarId: 'primary', timeMin: '2029-12-31T00:00:00Z' })
    assert.deepEqual(
      (all.output as any).events.map((e: any) => e.id),
      ['ev1', 'ev2']
    )
    const listed = google.requests.find((r) => r.path.endsWith('/events'))!
    assert.equal(listed.headers.authorization, `Bearer ${credentials.oauth.accessToken}`)

    const one = await run('List events', {
      maxResults: 1,
      timeMin: '2029-12-31T00:00:00Z',
      query: 'review',
    })
    assert.deepEqual(
      (one.output as any).events.map((e: any) => e.id),
      ['ev2']
    )
    const tooMany = await run('List events', { maxResults: 251 })
    assert.deepEqual(tooMany.errors, ['List events failed'])
    const validate = validatorFor(calendarPlugin as any)
    await assert.rejects(() =>
      validate.validate({ action: 'List events', credentialsId: 'c', maxResults: 300 })
    )
  })

  test('Create, update and delete an event; attendees need a valid e-mail', async ({ assert }) => {
    const created = await run('Create event', {
      summary: 'Demo',
      start: '2030-02-01T10:00:00+01:00',
      end: '2030-02-01T11:00:00+01:00',
      timeZone: 'Europe/Paris',
      attendees: [{ email: 'ada@example.com' }],
    })
    assert.deepEqual(created.errors, [])
    const event = created.output as any
    assert.deepEqual(event.attendees, [{ email: 'ada@example.com' }])
    assert.deepEqual(event.start, {
      dateTime: '2030-02-01T10:00:00+01:00',
      timeZone: 'Europe/Paris',
    })
    assert.deepInclude(created.logs.map(brief), {
      status: 'success',
      description: 'Event "Demo" created',
    })

    const sent = google.requests.length
    const badEmail = await run('Create event', {
      summary: 'Bad',
      start: '2030-02-01',
      end: '2030-02-02',
      attendees: [{ email: 'not-an-email' }],
    })
    assert.deepEqual(badEmail.errors, ['Create event failed'])
    assert.include(
      JSON.stringify(badEmail.logs),
      'Attendees need a valid e-mail: \\"not-an-email\\"'
    )
    assert.equal(google.requests.length, sent, 'nothing sent')
    const validate = validatorFor(calendarPlugin as any)
    await assert.rejects(() =>
      validate.validate({
        action: 'Create event',
        credentialsId: 'c',
        summary: 'x',
        start: '2030-02-01',
        end: '2030-02-02',
        attendees: [{ email: 'nope' }],
      })
    )

    const updated = await run('Update event', {
      eventId: event.id,
      summary: 'Demo (moved)',
      location: 'Room 2',
    })
    assert.equal((updated.output as any).summary, 'Demo (moved)')
    assert.equal((updated.output as any).location, 'Room 2')
    assert.deepEqual((updated.output as any).attendees, [{ email: 'ada@example.com' }])

    const deleted = await run('Delete event', { eventId: event.id })
    assert.deepEqual(deleted.output, { eventId: event.id, deleted: true })
    assert.isUndefined(google.calendars.get('primary')!.find((e) => e.id === event.id))
    const gone = await run('Delete event', { eventId: event.id })
    assert.deepEqual(gone.errors, ['Delete event failed'])
    assert.include(JSON.stringify(gone.logs), 'Google Calendar answered 404')
  })
})

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

  test('a bot maps the found fields; the spec rules and a refused key', async ({ assert }) => {
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
