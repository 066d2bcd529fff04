import { test } from '@japa/runner'
import { validatorFor } from '#plugins/derive'
import { forgetGoogleTokens } from '#sdk/google'
import { runPluginTest } from '#sdk/testing'
import { startGoogleStandIn, type GoogleStandIn } from '#tests/stand_ins/google'
import calendarPlugin from '../../plugins/google-calendar/index.js'
import { brief, SHEETS, CALENDAR, oauthCredentials, ORDERS } from '#tests/functional/google_setup'

/**
 * Each action of the Google Sheets, Google Calendar and Firebase plugins against the Google
 * stand-in (Sheets v4, Calendar v3, Firestore v1 and the token endpoint), with the plugins'
 * messages.
 */

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
