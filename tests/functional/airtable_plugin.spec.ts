import { test } from '@japa/runner'
import env from '#start/env'
import { runPluginTest } from '#sdk/testing'
import { newId } from '#services/ids'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { createUser, firstWorkspaceOf, storeCredential } from '#tests/helpers'
import { startAirtableStandIn, type AirtableTable } from '#tests/stand_ins/airtable'

/**
 * The Airtable node against a stand-in of Airtable's REST API (tests/stand_ins/airtable.ts):
 * list and search (formula, view, paging), create, update and delete, values that try to
 * break out of a formula, errors with Airtable's body, the host rule, and a workflow run with
 * stored credentials.
 */

const folder = new URL('../../plugins/airtable/', import.meta.url)
const TOKEN = 'patStandIn.secret'
const BASE = 'appStandIn0000001'

type Service = Awaited<ReturnType<typeof startAirtableStandIn>>
let service: Service
let table: AirtableTable

function contacts(): AirtableTable {
  const rows: [string, string, number][] = [
    ['Ada', 'Open', 40],
    ['Alan', 'Closed', 15],
    ['Grace "Amazing"', 'Open', 90],
  ]
  return {
    id: 'tblContacts000001',
    name: 'Contacts',
    fields: { Name: 'text', Status: 'text', Total: 'number', Note: 'text' },
    records: rows.map(([Name, Status, Total], i) => ({
      id: `recSeed${i}0000000000`,
      createdTime: '2026-01-01T00:00:00.000Z',
      fields: { Name, Status, Total },
    })),
    views: { 'Big ones': (record) => Number(record.fields.Total) >= 40 },
  }
}

const variables = () => [
  { id: 'v_out', name: 'Out', value: null },
  { id: 'v_name', name: 'Name', value: 'Alan' },
  { id: 'v_evil', name: 'Evil', value: 'x" , TRUE()) & OR(TRUE(), "' },
]

function run(action: string, options: Record<string, unknown>, apiKey = TOKEN) {
  return runPluginTest({
    folder,
    surface: 'workflow',
    action,
    options: { baseId: BASE, table: 'Contacts', ...options },
    credentials: { apiKey, baseUrl: service.baseUrl },
    variables: variables(),
  }) as Promise<Awaited<ReturnType<typeof runPluginTest>> & { output: any }>
}

test.group('Airtable node', (group) => {
  group.each.setup(async () => {
    table = contacts()
    service = await startAirtableStandIn({ token: TOKEN, bases: { [BASE]: [table] } })
    return () => service.close()
  })

  test('list, search by a field, a formula, a view', async ({ assert }) => {
    const all = await run('Search records', {
      responseMapping: [{ field: 'Name', variableId: 'v_out' }],
    })
    assert.deepEqual(all.errors, [])
    assert.equal(all.output.count, 3)
    assert.deepEqual(all.variablesSet, [{ id: 'v_out', value: ['Ada', 'Alan', 'Grace "Amazing"'] }])
    const request = service.requests.at(-1)!
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`)
    assert.equal(request.path, `/v0/${BASE}/Contacts`)

    const byName = await run('Search records', {
      searchField: 'Name',
      searchValue: '{{Name}}',
      responseMapping: [
        { field: 'Total', variableId: 'v_out' },
        { field: 'Phone', variableId: 'v_out' },
      ],
    })
    assert.deepEqual(byName.variablesSet, [{ id: 'v_out', value: 15 }])
    assert.deepEqual(byName.logs, [
      {
        status: 'info',
        description: 'Field Phone does not exist in the API response',
        details: undefined,
      },
    ])
    assert.deepEqual(service.requests.at(-1)!.query.filterByFormula, ['{Name} = "Alan"'])

    const quoted = await run('Search records', {
      searchField: 'Name',
      searchValue: 'Grace "Amazing"',
      responseMapping: [{ field: 'id', variableId: 'v_out' }],
    })
    assert.deepEqual(quoted.variablesSet, [{ id: 'v_out', value: 'recSeed20000000000' }])

    const formula = await run('Search records', {
      filterByFormula: 'AND({Status} = "Open", {Total} > 50)',
      searchField: 'Status',
      searchValue: 'Open',
    })
    assert.deepEqual(
      formula.output.records.map((r: any) => r.fields.Name),
      ['Grace "Amazing"']
    )
    assert.deepEqual(service.requests.at(-1)!.query.filterByFormula, [
      'AND(AND({Status} = "Open", {Total} > 50), {Status} = "Open")',
    ])

    const view = await run('Search records', { view: 'Big ones', maxRecords: 1 })
    assert.deepEqual(
      view.output.records.map((r: any) => r.fields.Name),
      ['Ada']
    )
    const none = await run('Search records', { searchField: 'Name', searchValue: 'Linus' })
    assert.deepEqual(none.logs[0].description, "Couldn't find any rows matching the filter")
  })

  test('a value cannot break out of its formula string', async ({ assert }) => {
    const evil = await run('Search records', { searchField: 'Name', searchValue: '{{Evil}}' })
    assert.deepEqual(evil.errors, [])
    assert.equal(evil.output.count, 0)
    const badField = await run('Search records', {
      searchField: 'Name} = "x" , {Total',
      searchValue: '1',
    })
    assert.deepEqual(badField.errors, ['Search failed'])
    assert.match(String(badField.logs[0].details), /Invalid field name/)
  })

  test('pages through the offsets up to "At most"', async ({ assert }) => {
    table.records = Array.from({ length: 250 }, (_, i) => ({
      id: `recRow${String(i).padStart(11, '0')}`,
      createdTime: '2026-01-01T00:00:00.000Z',
      fields: { Name: `n${i}`, Total: i },
    }))
    const some = await run('Search records', { maxRecords: 230 })
    assert.equal(some.output.count, 230)
    assert.deepEqual(
      service.requests.slice(-3).map((r) => [r.query.pageSize?.[0], Boolean(r.query.offset)]),
      [
        ['100', false],
        ['100', true],
        ['30', true],
      ]
    )
    const bad = await run('Search records', { maxRecords: '0' })
    assert.deepEqual(bad.errors, ['"At most" must be a whole number from 1 to 1000'])
  })

  test('create, update and delete a record', async ({ assert }) => {
    const created = await run('Create record', {
      fields: [
        { key: 'Name', value: 'Linus' },
        { key: 'Total', value: '12' },
        { key: 'Note', value: '' },
      ],
    })
    assert.deepEqual(created.errors, [])
    assert.equal(created.logs[0].description, 'Record added successfully')
    assert.deepEqual(created.output.fields, { Name: 'Linus', Total: 12 })
    assert.deepEqual(service.requests.at(-1)!.body, {
      records: [{ fields: { Name: 'Linus', Total: '12' } }],
      typecast: true,
    })
    const id = created.output.id

    const strict = await run('Create record', {
      fields: [{ key: 'Total', value: 'twelve' }],
      typecast: false,
    })
    assert.deepEqual(strict.errors, ['Create failed'])
    assert.deepEqual(strict.logs[0].details, {
      message: 'Airtable answered 422: Field "Total" cannot accept the provided value',
      status: 422,
      body: {
        error: {
          type: 'INVALID_VALUE_FOR_COLUMN',
          message: 'Field "Total" cannot accept the provided value',
        },
      },
    })

    const updated = await run('Update record', {
      recordId: id,
      fields: [{ key: 'Status', value: 'Open' }],
    })
    assert.deepEqual(updated.errors, [])
    assert.equal(updated.logs[0].description, 'Record updated successfully')
    assert.deepEqual(table.records.at(-1)!.fields, { Name: 'Linus', Total: 12, Status: 'Open' })
    assert.equal(service.requests.at(-1)!.method, 'PATCH')

    const nothing = await run('Update record', { recordId: id, fields: [] })
    assert.deepEqual(nothing.logs, [])

    const deleted = await run('Delete record', { recordId: id })
    assert.equal(deleted.logs[0].description, 'Record deleted successfully')
    assert.deepEqual(deleted.output, { id, deleted: true })
    assert.deepEqual(service.requests.at(-1)!.query['records[]'], [id])
    assert.lengthOf(table.records, 3)

    const gone = await run('Delete record', { recordId: id })
    assert.deepEqual(gone.errors, ['Delete failed'])
    assert.match(JSON.stringify(gone.logs[0].details), /not found/)
    const badId = await run('Delete record', { recordId: 'abc' })
    assert.match(String(badId.logs[0].details), /Invalid record ID/)
  })

  test('a missing or refused token, an unknown table, the host rule', async ({
    assert,
    cleanup,
  }) => {
    assert.deepEqual((await run('Search records', {}, '')).errors, ['API key is required'])
    const refused = await run('Search records', {}, 'patWrong')
    assert.deepEqual(refused.errors, ['Search failed'])
    assert.equal(
      (refused.logs[0].details as any).message,
      'Airtable answered 401: Authentication required'
    )
    const unknown = await run('Search records', { table: 'Nope' })
    assert.match((unknown.logs[0].details as any).message, /Could not find table Nope/)

    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => env.set('ALLOW_INTERNAL_HTTP', true))
    const count = service.requests.length
    const blocked = await run('Search records', {})
    assert.deepEqual(blocked.errors, ['Search failed'])
    assert.equal(service.requests.length, count)
  })

  test('a workflow run creates then finds a record with stored credentials', async ({ assert }) => {
    const credentialsId = newId()
    const base = { credentialsId, baseId: BASE, table: 'tblContacts000001' }
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      {
        id: 'create',
        type: 'airtable',
        options: { ...base, action: 'Create record', fields: [{ key: 'Name', value: 'Linus' }] },
      },
      {
        id: 'find',
        type: 'airtable',
        options: { ...base, action: 'Search records', searchField: 'Name', searchValue: 'Linus' },
      },
    ])
    await storeCredential(
      { workspaceId: workflow.workspaceId, userId: workflow.user.id },
      {
        id: credentialsId,
        type: 'airtable',
        name: 'Airtable',
        data: { apiKey: TOKEN, baseUrl: service.baseUrl },
      }
    )
    const done = await executeRun(await createRun(workflow, 'manual', null))
    assert.equal(done?.status, 'success', JSON.stringify(done))
    assert.deepEqual(
      (done?.output as any).records.map((r: any) => r.fields),
      [{ Name: 'Linus' }]
    )
  }).timeout(20_000)

  test("the credential's Test asks who the token belongs to", async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateCredential } = await import('#actions/credentials/create_credential')
    const made = (apiKey: string) =>
      new CreateCredential().handle(user, workspace, {
        type: 'airtable',
        name: apiKey,
        data: { apiKey, baseUrl: service.baseUrl },
      })
    const good = await made(TOKEN)
    const ok = await client.post(`/api/credentials/${good.id}/test`).loginAs(user).withCsrfToken()
    ok.assertBody({ ok: true, message: 'Connected.' })
    assert.equal(service.requests.at(-1)!.path, '/v0/meta/whoami')
    const bad = await made('patWrong')
    const ko = await client.post(`/api/credentials/${bad.id}/test`).loginAs(user).withCsrfToken()
    ko.assertBody({ ok: false, message: 'Airtable answered 401' })
  })
})
