import { test } from '@japa/runner'
import env from '#start/env'
import { runPluginTest } from '#sdk/testing'
import { botWithVariables, createUser, firstWorkspaceOf, storeCredential } from '#tests/helpers'
import { startNocoDbStandIn, type NocoTable } from '#tests/stand_ins/nocodb'

/**
 * The NocoDB plugin against a stand-in of NocoDB's v2 data API (tests/stand_ins/nocodb.ts):
 * search with operators, joiner, view and return type, create, update (fetch then patch),
 * the runtime checks, errors with NocoDB's body, the host rule, and the editor's Test
 * with stored credentials.
 */

const folder = new URL('../../plugins/nocodb/', import.meta.url)
const TOKEN = 'nc-token-1'

function orders(): Record<string, NocoTable> {
  return {
    m_orders: {
      rows: [
        { Id: 1, Number: '1001', Status: 'shipped', Email: 'ada@example.com', Total: 40 },
        { Id: 2, Number: '1002', Status: 'packing', Email: 'alan@example.com', Total: 15 },
        { Id: 3, Number: '1003', Status: 'shipped', Email: 'grace@example.org', Total: 90 },
        { Id: 4, Number: '1004', Status: null, Email: 'linus@example.org', Total: 5 },
      ],
      views: { vw_big: (row) => Number(row.Total) >= 40 },
    },
  }
}

type Service = Awaited<ReturnType<typeof startNocoDbStandIn>>
let service: Service
let tables: Record<string, NocoTable>

const variables = () => [
  { id: 'v_out', name: 'Out', value: null },
  { id: 'v_list', name: 'List', value: null },
  { id: 'v_number', name: 'Number', value: '1002' },
]

function run(
  action: string,
  options: Record<string, unknown>,
  credentials: Record<string, unknown> = { baseUrl: `${service.baseUrl}/`, apiKey: TOKEN }
) {
  return runPluginTest({
    folder,
    surface: 'workflow',
    action,
    options: { tableId: 'm_orders', ...options },
    credentials,
    variables: variables(),
  }) as Promise<Awaited<ReturnType<typeof runPluginTest>> & { output: any }>
}

const comparisons = (...list: [string, string, string?][]) =>
  list.map(([input, operator, value]) => ({ input, operator, value }))

test.group('NocoDB plugin', (group) => {
  group.each.setup(async () => {
    tables = orders()
    service = await startNocoDbStandIn({ token: TOKEN, tables })
    return () => service.close()
  })

  test('search: operators, the joiner and the where syntax NocoDB reads', async ({ assert }) => {
    const shipped = await run('Search records', {
      filter: {
        comparisons: comparisons(['Status', 'Equal to', 'shipped'], ['Email', 'Ends with', '.org']),
        joiner: 'AND',
      },
      responseMapping: [{ field: 'Number', variableId: 'v_out' }],
    })
    assert.deepEqual(shipped.errors, [])
    assert.deepEqual(shipped.variablesSet, [{ id: 'v_out', value: '1003' }])
    const request = service.requests.at(-1)!
    assert.equal(request.headers['xc-token'], TOKEN)
    assert.equal(request.path, '/api/v2/tables/m_orders/records')
    assert.equal(request.query.where, '(Status,eq,shipped)~and(Email,like,%.org)')

    const either = await run('Search records', {
      filter: {
        comparisons: comparisons(
          ['Number', 'Equal to', '{{Number}}'],
          ['Total', 'Greater than', '80']
        ),
        joiner: 'OR',
      },
      responseMapping: [{ field: 'Email', variableId: 'v_list' }],
    })
    assert.deepEqual(either.variablesSet, [
      { id: 'v_list', value: ['alan@example.com', 'grace@example.org'] },
    ])
    assert.equal(service.requests.at(-1)!.query.where, '(Number,eq,1002)~or(Total,gt,80)')

    const cases: [string, string | undefined, number[]][] = [
      ['Not equal', 'shipped', [2, 4]],
      ['Contains', 'example.c', [1, 2]],
      ['Starts with', 'gr', [3]],
      ['Less than', '20', [2, 4]],
      ['Is set', undefined, [1, 2, 3]],
      ['Is empty', undefined, [4]],
    ]
    for (const [operator, value, ids] of cases) {
      const field = ['Contains', 'Starts with'].includes(operator)
        ? 'Email'
        : operator === 'Less than'
          ? 'Total'
          : 'Status'
      const found = await run('Search records', {
        filter: { comparisons: comparisons([field, operator, value]) },
      })
      assert.deepEqual(
        found.output.records.map((r: any) => r.Id),
        ids,
        operator
      )
    }
    assert.equal(service.requests.at(-1)!.query.where, '(Status,is,null)')
  })

  test('search: return types, the view, no match and a missing field', async ({ assert }) => {
    const filter = { comparisons: comparisons(['Status', 'Equal to', 'shipped']) }
    const first = await run('Search records', {
      filter,
      returnType: 'First',
      responseMapping: [{ field: 'Id', variableId: 'v_out' }],
    })
    assert.deepEqual(first.variablesSet, [{ id: 'v_out', value: 1 }])
    assert.equal(service.requests.at(-1)!.query.limit, '1')
    const last = await run('Search records', {
      filter,
      returnType: 'Last',
      responseMapping: [{ field: 'Id', variableId: 'v_out' }],
    })
    assert.deepEqual(last.variablesSet, [{ id: 'v_out', value: 3 }])
    const seen = new Set<number>()
    for (let i = 0; i < 30; i++) {
      const random = await run('Search records', { filter, returnType: 'Random' })
      assert.lengthOf(random.output.records, 1)
      seen.add(random.output.records[0].Id)
    }
    assert.deepEqual([...seen].sort(), [1, 3])

    const inView = await run('Search records', { viewId: 'vw_big', returnType: 'All' })
    assert.deepEqual(
      inView.output.records.map((r: any) => r.Id),
      [1, 3]
    )
    assert.equal(service.requests.at(-1)!.query.viewId, 'vw_big')

    const none = await run('Search records', {
      filter: { comparisons: comparisons(['Status', 'Equal to', 'lost']) },
    })
    assert.deepEqual(none.logs, [
      {
        status: 'info',
        description: "Couldn't find any rows matching the filter",
        details: undefined,
      },
    ])
    const missingField = await run('Search records', {
      filter,
      returnType: 'First',
      responseMapping: [{ field: 'Phone', variableId: 'v_out' }],
    })
    assert.deepEqual(
      missingField.logs[0].description,
      'Field Phone does not exist in the API response'
    )
  })

  test('search pages through large tables, at most 1,000 records', async ({ assert }) => {
    tables.m_orders.rows = Array.from({ length: 1_020 }, (_, i) => ({ Id: i + 1, Kind: 'row' }))
    const all = await run('Search records', {
      filter: { comparisons: comparisons(['Kind', 'Equal to', 'row']) },
    })
    assert.lengthOf(all.output.records, 1_000)
    assert.equal(all.output.totalRows, 1_020)
    assert.deepEqual(all.logs[0].description, 'Only the first 1,000 records were kept')
    assert.deepEqual(
      service.requests.slice(-2).map((r) => [r.query.limit, r.query.offset]),
      [
        ['100', '800'],
        ['100', '900'],
      ]
    )
  }).timeout(20_000)

  test('create a record: empty entries skipped, nothing sent without fields', async ({
    assert,
  }) => {
    const created = await run('Create record', {
      fields: [
        { key: 'Number', value: '1005' },
        { key: 'Email', value: "Robert'); DROP TABLE x;--" },
        { key: 'Status', value: '' },
      ],
    })
    assert.deepEqual(created.errors, [])
    assert.equal(created.logs[0].description, 'Record added successfully')
    assert.deepEqual(created.output, {
      id: 5,
      record: { Number: '1005', Email: "Robert'); DROP TABLE x;--" },
    })
    assert.deepEqual(tables.m_orders.rows.at(-1), {
      Number: '1005',
      Email: "Robert'); DROP TABLE x;--",
      Id: 5,
    })
    const count = service.requests.length
    const nothing = await run('Create record', { fields: [{ key: 'Number', value: '' }] })
    assert.deepEqual(nothing.logs, [])
    assert.equal(service.requests.length, count)
  })

  test('update fetches the matching records, then patches them by Id', async ({ assert }) => {
    const updated = await run('Update record', {
      filter: { comparisons: comparisons(['Status', 'Equal to', 'shipped']) },
      updates: [{ key: 'Status', value: 'delivered' }],
    })
    assert.deepEqual(updated.errors, [])
    assert.equal(updated.logs[0].description, 'Record updated successfully')
    assert.deepEqual(updated.output, { updated: 2, ids: [1, 3] })
    const [fetch, patch] = service.requests.slice(-2)
    assert.equal(fetch.method, 'GET')
    assert.equal(patch.method, 'PATCH')
    assert.deepEqual(patch.body, [
      { Id: 1, Status: 'delivered' },
      { Id: 3, Status: 'delivered' },
    ])
    assert.deepEqual(
      tables.m_orders.rows.map((row) => row.Status),
      ['delivered', 'packing', 'delivered', null]
    )

    const none = await run('Update record', {
      filter: { comparisons: comparisons(['Status', 'Equal to', 'lost']) },
      updates: [{ key: 'Status', value: 'x' }],
    })
    assert.equal(none.logs[0].description, "Couldn't find any rows matching the filter")
    assert.notEqual(service.requests.at(-1)!.method, 'PATCH')

    const noUpdates = await run('Update record', {
      filter: { comparisons: comparisons(['Status', 'Equal to', 'packing']) },
      updates: [{ key: 'Status', value: '' }],
    })
    assert.deepEqual(noUpdates.errors, ['At least one update is required'])
    const noFilter = await run('Update record', {
      filter: { comparisons: [] },
      updates: [{ key: 'Status', value: 'x' }],
    })
    assert.deepEqual(noFilter.errors, ['At least one filter is required'])
    assert.equal(tables.m_orders.rows[1].Status, 'packing')
  })

  test('a value cannot widen the filter; a missing key and NocoDB errors are logged', async ({
    assert,
  }) => {
    const widened = await run('Update record', {
      filter: { comparisons: comparisons(['Number', 'Equal to', '1001)~or(Id,gt,0']) },
      updates: [{ key: 'Status', value: 'hacked' }],
    })
    assert.deepEqual(widened.errors, ['Update failed'])
    assert.match(String(widened.logs[0].details), /"\)~" is not allowed/)
    assert.isFalse(tables.m_orders.rows.some((row) => row.Status === 'hacked'))

    const noKey = await run('Search records', {}, { baseUrl: service.baseUrl, apiKey: ' ' })
    assert.deepEqual(noKey.errors, ['API key is required'])

    const badKey = await run('Search records', {}, { baseUrl: service.baseUrl, apiKey: 'wrong' })
    assert.deepEqual(badKey.errors, ['Search failed'])
    assert.deepEqual(badKey.logs[0].details, {
      message: 'NocoDB answered 401: Authentication required - Invalid token',
      status: 401,
      body: { msg: 'Authentication required - Invalid token' },
    })
    const unknownTable = await run('Create record', {
      tableId: 'm_nope',
      fields: [{ key: 'A', value: '1' }],
    })
    assert.deepEqual(unknownTable.errors, ['Create failed'])
    assert.match(JSON.stringify(unknownTable.logs[0].details), /Table 'm_nope' not found/)
  })

  test('the host rule of the HTTP block applies', async ({ assert, cleanup }) => {
    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => env.set('ALLOW_INTERNAL_HTTP', true))
    const count = service.requests.length
    const refused = await run('Search records', {})
    assert.deepEqual(refused.errors, ['Search failed'])
    assert.match(String(refused.logs[0].details), /internal|private|not allowed/i)
    assert.equal(service.requests.length, count)
  })

  test("the bot editor's Test runs a Search block with the stored credentials", async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const credential = await storeCredential(
      { workspaceId: workspace.id, userId: user.id },
      { type: 'nocodb', name: 'NocoDB', data: { baseUrl: service.baseUrl, apiKey: TOKEN } }
    )
    const bot = await botWithVariables({ workspaceId: workspace.id, userId: user.id }, [
      { id: 'v_number', name: 'Number' },
      { id: 'v_status', name: 'Status' },
    ])
    const options = {
      action: 'Search records',
      credentialsId: credential.id,
      tableId: 'm_orders',
      returnType: 'First',
      filter: { comparisons: comparisons(['Number', 'Equal to', '{{Number}}']) },
      responseMapping: [{ field: 'Status', variableId: 'v_status' }],
    }
    const tested = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(user)
      .withCsrfToken()
      .json({ type: 'nocodb', options, values: { v_number: '1002' } })
    tested.assertStatus(200)
    assert.deepEqual(tested.body().variablesSet, [
      { id: 'v_status', name: 'Status', value: 'packing' },
    ])
    assert.notInclude(JSON.stringify(tested.body()), TOKEN)
    const stranger = await createUser()
    const refused = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(stranger)
      .withCsrfToken()
      .json({ type: 'nocodb', options, values: { v_number: '1002' } })
    refused.assertStatus(404)
  })

  test("the credential's Test opens the base list with the token", async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const { CreateCredential } = await import('#actions/credentials/create_credential')
    const made = (apiKey: string) =>
      new CreateCredential().handle(user, workspace, {
        type: 'nocodb',
        name: apiKey,
        data: { baseUrl: `${service.baseUrl}/`, apiKey },
      })
    const good = await made(TOKEN)
    const ok = await client.post(`/api/credentials/${good.id}/test`).loginAs(user).withCsrfToken()
    ok.assertBody({ ok: true, message: 'Connected.' })
    assert.equal(service.requests.at(-1)!.path, '/api/v2/meta/bases')
    const bad = await made('wrong')
    const ko = await client.post(`/api/credentials/${bad.id}/test`).loginAs(user).withCsrfToken()
    ko.assertBody({ ok: false, message: 'NocoDB answered 401' })
  })
})
