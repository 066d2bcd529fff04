import { test } from '@japa/runner'
import env from '#start/env'
import { runPluginTest } from '#sdk/testing'
import { ObjectId } from 'bson'
import { startMongoStandIn, type MongoStandIn } from '#tests/stand_ins/mongodb'
import { closeMongoClients, mongoConnectionsOpened } from '../../plugins/mongodb/lib/client.js'

/**
 * The MongoDB plugin through the official driver against a wire-protocol stand-in
 * (tests/stand_ins/mongodb.ts): every action, values that look like operators, the
 * validators on insert and update, pooling over 50 runs, the host rule, and the plugin in
 * a workflow run and the bot editor's Test with stored credentials.
 */

const folder = new URL('../../plugins/mongodb/', import.meta.url)

let server: MongoStandIn

const variables = () => [
  { id: 'v_out', name: 'Out', value: null },
  { id: 'v_names', name: 'Names', value: null },
  { id: 'v_sku', name: 'Sku', value: 'A-1' },
  { id: 'v_evil', name: 'Evil', value: '{"$ne": null}' },
  { id: 'v_schema', name: 'Schema', value: '{"sku":"x","stock":3,"price":1.5,"active":true}' },
]

function run(
  action: string,
  options: Record<string, unknown>,
  surface: 'bot' | 'workflow' = 'workflow'
) {
  return runPluginTest({
    folder,
    surface,
    action,
    options: { database: 'shop', ...options },
    credentials: { baseUrl: server.url },
    variables: variables(),
  }) as Promise<Awaited<ReturnType<typeof runPluginTest>> & { output: any }>
}

const documentsOf = (name: string) => server.databases.get('shop')?.get(name)?.documents ?? []

test.group('MongoDB plugin: actions', (group) => {
  group.each.setup(async () => {
    server = await startMongoStandIn()
    return async () => {
      await closeMongoClients()
      await server.close()
    }
  })

  test('create a strict collection, insert typed documents, refuse what breaks its schema', async ({
    assert,
  }) => {
    const created = await run('Create table', {
      collection: 'products',
      isStrict: true,
      columns: [
        { columnName: 'sku', type: 'String' },
        { columnName: 'stock', type: 'Integer' },
        { columnName: 'price', type: 'Float' },
        { columnName: 'added', type: 'Date' },
      ],
    })
    assert.deepEqual(created.errors, [])
    assert.equal(created.logs[0].description, 'Collection "products" created successfully')
    const schema = server.databases.get('shop')!.get('products')!.validator!.$jsonSchema
    assert.deepEqual(schema.required, ['sku', 'stock', 'price', 'added'])
    assert.isFalse(schema.additionalProperties)

    const inserted = await run('Create record', {
      collection: 'products',
      fields: [
        { key: 'sku', value: '{{Sku}}' },
        { key: 'stock', value: '12' },
        { key: 'price', value: '9.5' },
        { key: 'added', value: '2026-01-02' },
        { key: 'ignored', value: '' },
      ],
    })
    assert.deepEqual(inserted.errors, [])
    assert.equal(inserted.logs[0].description, 'Record added successfully')
    const [stored] = documentsOf('products')
    assert.equal(stored.sku, 'A-1')
    assert.strictEqual(stored.stock, 12)
    assert.strictEqual(stored.price, 9.5)
    assert.instanceOf(stored.added, Date)
    assert.equal(inserted.output.insertedId, stored._id.toHexString())

    // A field the strict collection does not list, and a missing one: the server refuses.
    const extra = await run('Create record', {
      collection: 'products',
      fields: [
        { key: 'sku', value: 'B' },
        { key: 'stock', value: '1' },
        { key: 'price', value: '1' },
        { key: 'added', value: '2026-01-02' },
        { key: 'colour', value: 'red' },
      ],
    })
    assert.deepEqual(extra.errors, ['Insert failed'])
    assert.match(String(extra.logs[0].details), /Document failed validation.*colour/)
    const wrongType = await run('Create record', {
      collection: 'products',
      fields: [
        { key: 'sku', value: 'C' },
        { key: 'stock', value: 'many' },
        { key: 'price', value: '1' },
        { key: 'added', value: '2026-01-02' },
      ],
    })
    assert.deepEqual(wrongType.errors, ['Insert failed'])
    assert.match(String(wrongType.logs[0].details), /stock/)
    assert.lengthOf(documentsOf('products'), 1)

    const again = await run('Create table', { collection: 'products', isStrict: false })
    assert.deepEqual(again.errors, ['Create collection failed'])
    assert.match(String(again.logs[0].details), /already exists/)
  })

  test('strict without columns, dynamic from a variable, and plain collections', async ({
    assert,
  }) => {
    const empty = await run('Create table', { collection: 'nothing', isStrict: true })
    assert.deepEqual(empty.errors, [
      `Collection "nothing" can't be created without columns or dynamic data`,
    ])
    assert.isUndefined(server.databases.get('shop')?.get('nothing'))

    const missing = await run('Create table', { collection: 'x', dynamicVariable: 'v_out' })
    assert.deepEqual(missing.errors, ['Dynamic data variable is undefined or empty.'])

    const dynamic = await run('Create table', { collection: 'items', dynamicVariable: 'v_schema' })
    assert.deepEqual(dynamic.errors, [])
    assert.deepEqual(dynamic.output.fields, ['sku', 'stock', 'price', 'active'])
    const properties = server.databases.get('shop')!.get('items')!.validator!.$jsonSchema.properties
    assert.deepEqual(properties.stock, { bsonType: ['int', 'long'] })
    assert.deepEqual(properties.active, { bsonType: 'bool' })
    // Dynamic: typed fields, others allowed.
    const added = await run('Create record', {
      collection: 'items',
      fields: [
        { key: 'sku', value: 'Z' },
        { key: 'active', value: 'true' },
        { key: 'note', value: 'free text' },
      ],
    })
    assert.deepEqual(added.errors, [])
    assert.deepEqual(
      documentsOf('items').map(({ _id, ...rest }) => rest),
      [{ sku: 'Z', active: true, note: 'free text' }]
    )

    const plain = await run('Create table', { collection: 'logs', isStrict: false })
    assert.deepEqual(plain.errors, [])
    assert.isUndefined(server.databases.get('shop')!.get('logs')!.validator)

    const badName = await run('Create table', { collection: 'system.users' })
    assert.deepEqual(badName.errors, ['Create collection failed'])
    assert.match(String(badName.logs[0].details), /Invalid collection name/)
  })

  test('find with conditions and a projection, mapped into variables', async ({ assert }) => {
    await run('Create table', {
      collection: 'orders',
      columns: [
        { columnName: 'number', type: 'Integer' },
        { columnName: 'status', type: 'String' },
      ],
    })
    for (const [number, status, customer] of [
      ['1', 'shipped', 'ada'],
      ['2', 'packing', 'alan'],
      ['3', 'shipped', 'grace'],
    ]) {
      await run('Create record', {
        collection: 'orders',
        fields: [
          { key: 'number', value: number },
          { key: 'status', value: status },
          { key: 'customer', value: customer },
        ],
      })
    }
    const one = await run(
      'Search',
      {
        collection: 'orders',
        conditions: [{ fieldName: 'number', value: '2' }],
        projection: [
          { fieldName: 'status', include: true },
          { fieldName: '_id', include: false },
        ],
        responseMapping: [
          { field: 'status', variableId: 'v_out' },
          { field: 'customer', variableId: 'v_names' },
        ],
      },
      'bot'
    )
    assert.deepEqual(one.output, { documents: [{ status: 'packing' }], count: 1 })
    assert.deepEqual(one.variablesSet, [{ id: 'v_out', value: 'packing' }])
    assert.deepEqual(one.logs, [
      {
        status: 'info',
        description: 'Field customer does not exist in the document',
        details: undefined,
      },
    ])
    const find = server.commands.filter((command) => command.name === 'find').at(-1)!
    assert.deepEqual(find.body.filter, { number: { $eq: 2 } })
    assert.deepEqual(find.body.projection, { status: 1, _id: 0 })
    // The server stops a command after 10 s.
    assert.equal(find.body.maxTimeMS, 10_000)

    const several = await run('Search', {
      collection: 'orders',
      conditions: [{ fieldName: 'status', value: 'shipped' }],
      projection: [{ fieldName: 'status', include: false }],
      responseMapping: [{ field: 'customer', variableId: 'v_names' }],
    })
    assert.deepEqual(several.variablesSet, [{ id: 'v_names', value: ['ada', 'grace'] }])
    assert.notProperty(several.output.documents[0], 'status')
    assert.match(several.output.documents[0]._id, /^[0-9a-f]{24}$/)

    // By _id, written as 24 hex digits.
    const id = several.output.documents[1]._id
    const byId = await run('Search', {
      collection: 'orders',
      conditions: [{ fieldName: '_id', value: id }],
      responseMapping: [{ field: 'customer', variableId: 'v_out' }],
    })
    assert.deepEqual(byId.variablesSet, [{ id: 'v_out', value: 'grace' }])

    const none = await run('Search', {
      collection: 'orders',
      conditions: [{ fieldName: 'status', value: 'lost' }],
    })
    assert.deepEqual(none.logs, [
      {
        status: 'info',
        description: 'No matching documents found in the collection',
        details: undefined,
      },
    ])
    // Without conditions Search does nothing.
    const before = server.commands.length
    const nothing = await run('Search', { collection: 'orders', conditions: [] })
    assert.deepEqual(nothing.logs, [])
    assert.isUndefined(server.commands.slice(before).find((c) => c.name === 'find'))
  })

  test('a variable holding an operator is a value: it matches, updates and deletes nothing', async ({
    assert,
  }) => {
    for (const customer of ['ada', 'alan']) {
      await run('Create record', {
        collection: 'people',
        fields: [{ key: 'name', value: customer }],
      })
    }
    const found = await run('Search', {
      collection: 'people',
      conditions: [{ fieldName: 'name', value: '{{Evil}}' }],
    })
    assert.deepEqual(found.output, { documents: [], count: 0 })
    const deleted = await run('Delete', {
      collection: 'people',
      conditions: [{ fieldName: 'name', value: '{{Evil}}' }],
    })
    assert.deepEqual(deleted.logs[0].description, 'No matching document found in the collection')
    assert.lengthOf(documentsOf('people'), 2)
    const operatorName = await run('Update', {
      collection: 'people',
      conditions: [{ fieldName: '$where', value: '1' }],
      updates: [{ key: 'name', value: 'x' }],
    })
    assert.deepEqual(operatorName.errors, ['Update failed'])
    assert.match(String(operatorName.logs[0].details), /Invalid field name "\$where"/)
  })

  test('updateMany runs the validator; deleteMany removes every match', async ({ assert }) => {
    await run('Create table', {
      collection: 'stock',
      isStrict: true,
      columns: [
        { columnName: 'sku', type: 'String' },
        { columnName: 'count', type: 'Integer' },
        { columnName: 'shelf', type: 'String' },
      ],
    })
    for (const [sku, shelf] of [
      ['a', 'top'],
      ['b', 'top'],
      ['c', 'low'],
    ]) {
      const added = await run('Create record', {
        collection: 'stock',
        fields: [
          { key: 'sku', value: sku },
          { key: 'count', value: '1' },
          { key: 'shelf', value: shelf },
        ],
      })
      assert.deepEqual(added.errors, [])
    }
    const updated = await run('Update', {
      collection: 'stock',
      conditions: [{ fieldName: 'shelf', value: 'top' }],
      updates: [{ key: 'count', value: '7' }],
    })
    assert.deepEqual(updated.logs[0].description, 'Document updated')
    assert.deepEqual(updated.output, { matchedCount: 2, modifiedCount: 2 })
    assert.deepEqual(
      documentsOf('stock').map((d) => [d.sku, d.count]),
      [
        ['a', 7],
        ['b', 7],
        ['c', 1],
      ]
    )
    const refused = await run('Update', {
      collection: 'stock',
      conditions: [{ fieldName: 'shelf', value: 'top' }],
      updates: [{ key: 'count', value: 'lots' }],
    })
    assert.deepEqual(refused.errors, ['Update failed'])
    assert.match(String(refused.logs[0].details), /Document failed validation/)
    assert.deepEqual(
      documentsOf('stock').map((d) => d.count),
      [7, 7, 1]
    )
    const noMatch = await run('Update', {
      collection: 'stock',
      conditions: [{ fieldName: 'shelf', value: 'attic' }],
      updates: [{ key: 'count', value: '2' }],
    })
    assert.deepEqual(noMatch.logs[0].description, 'No matching document found in the collection')
    const noUpdates = await run('Update', {
      collection: 'stock',
      conditions: [{ fieldName: 'shelf', value: 'top' }],
      updates: [],
    })
    assert.deepEqual(noUpdates.logs, [])

    const deleted = await run('Delete', {
      collection: 'stock',
      conditions: [{ fieldName: 'shelf', value: 'top' }],
    })
    assert.deepEqual(deleted.logs[0].description, 'Document deleted')
    assert.deepEqual(deleted.output, { deletedCount: 2 })
    assert.deepEqual(
      documentsOf('stock').map((d) => d.sku),
      ['c']
    )
    const noConditions = await run('Delete', { collection: 'stock', conditions: [] })
    assert.deepEqual(noConditions.logs, [])
    assert.lengthOf(documentsOf('stock'), 1)
  })

  test('at most 1,000 documents are mapped, with an info log', async ({ assert }) => {
    const collection = { documents: [] as any[], options: {} }
    for (let i = 0; i < 1_050; i++)
      collection.documents.push({ _id: new ObjectId(), kind: 'row', n: i })
    server.databases.set('shop', new Map([['many', collection]]))
    const found = await run('Search', {
      collection: 'many',
      conditions: [{ fieldName: 'kind', value: 'row' }],
      responseMapping: [{ field: 'n', variableId: 'v_out' }],
    })
    assert.equal(found.output.count, 1_000)
    assert.deepEqual(found.logs[0], {
      status: 'info',
      description: 'Only the first 1,000 documents were kept',
      details: undefined,
    })
    assert.isTrue(server.commands.some((command) => command.name === 'getMore'))
  }).timeout(20_000)

  test('one pooled client per credential: 50 runs open at most a few connections', async ({
    assert,
  }) => {
    const runs = Array.from({ length: 50 }, (_, i) =>
      run('Create record', { collection: 'visits', fields: [{ key: 'n', value: String(i) }] })
    )
    const outcomes = await Promise.all(runs)
    assert.deepEqual(
      outcomes.flatMap((outcome) => outcome.errors),
      []
    )
    assert.lengthOf(documentsOf('visits'), 50)
    const opened = await mongoConnectionsOpened(server.url)
    assert.isAtLeast(opened, 1)
    assert.isAtMost(opened, 5)
    // The pool's connections and the driver's monitor: never one per run.
    assert.isAtMost(server.connections(), 8)
  })

  test('an internal host is refused unless internal networks are allowed', async ({
    assert,
    cleanup,
  }) => {
    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => env.set('ALLOW_INTERNAL_HTTP', true))
    for (const baseUrl of [
      `mongodb://localhost:${server.port}/shop`,
      `mongodb://127.0.0.1:${server.port}/shop`,
    ]) {
      const outcome = await runPluginTest({
        folder,
        surface: 'workflow',
        action: 'Search',
        options: { collection: 'orders', conditions: [{ fieldName: 'a', value: '1' }] },
        credentials: { baseUrl },
      })
      assert.deepEqual(outcome.errors, ['Find failed'])
      assert.match(String(outcome.logs[0].details), /internal network addresses are not allowed/)
    }
    assert.equal(server.connections(), 0)
  })
})
