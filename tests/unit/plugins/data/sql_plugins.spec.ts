import { test } from '@japa/runner'
import env from '#start/env'
import { runPluginTest } from '#sdk/testing'
import { formOf } from '#plugins/derive'
import postgresPlugin from '../../../../plugins/postgres/index.js'
import {
  sqlConnectionsOpened,
  sqlPool,
  SQL_POOL_MAX,
  workspaceSqliteFile,
  type SqlEngine,
  type SqlTarget,
} from '#sdk/data'

/**
 * The SQL plugins against real servers: PostgreSQL and MariaDB of the machine, and a SQLite
 * file in a workspace's storage. The same cases run on each engine.
 */

const POSTGRES_URL = process.env.DATA_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test'
const MYSQL_URL = process.env.DATA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test'

interface Engine {
  engine: SqlEngine
  folder: URL
  credentials: Record<string, unknown>
  target: () => SqlTarget
  integer: 'INT' | 'INTEGER'
  placeholder: (n: number) => string
}

const sqliteName = `suite_${process.pid}`

const engines: Engine[] = [
  {
    engine: 'postgres',
    folder: new URL('../../../../plugins/postgres/', import.meta.url),
    credentials: { url: POSTGRES_URL },
    target: () => ({ engine: 'postgres', url: POSTGRES_URL, allowInternal: true }),
    integer: 'INTEGER',
    placeholder: (n) => `$${n}`,
  },
  {
    engine: 'mysql',
    folder: new URL('../../../../plugins/mysql/', import.meta.url),
    credentials: { mysqlURL: MYSQL_URL },
    target: () => ({ engine: 'mysql', url: MYSQL_URL, allowInternal: true }),
    integer: 'INT',
    placeholder: () => '?',
  },
  {
    engine: 'sqlite',
    folder: new URL('../../../../plugins/sqlite/', import.meta.url),
    credentials: { database: sqliteName },
    target: () => ({
      engine: 'sqlite',
      url: workspaceSqliteFile('test-workspace', sqliteName),
      allowInternal: false,
    }),
    integer: 'INTEGER',
    placeholder: () => '?',
  },
]

const variables = () => [
  { id: 'v_name', name: 'Name', value: null },
  { id: 'v_age', name: 'Age', value: null },
  { id: 'v_evil', name: 'Evil', value: '1; DROP TABLE fc_victim' },
  { id: 'v_columns', name: 'Columns', value: null },
]

for (const spec of engines) {
  const label = spec.engine
  const table = () => `fc_${label}_${Math.random().toString(36).slice(2, 10)}`

  const run = (action: string, options: Record<string, unknown>, extra: object = {}) =>
    runPluginTest({
      folder: spec.folder,
      surface: 'bot',
      action,
      options,
      credentials: spec.credentials,
      variables: variables(),
      ...extra,
    })

  async function createPeople(name: string) {
    const made = await run('Create table', {
      tableName: name,
      columns: [
        { columnName: 'id', type: spec.integer, isPrimaryKey: true },
        { columnName: 'name', type: 'VARCHAR', length: 80 },
        { columnName: 'age', type: spec.integer },
        { columnName: 'score', type: 'FLOAT' },
        { columnName: 'active', type: 'BOOLEAN' },
        { columnName: 'joined', type: 'DATE' },
      ],
    })
    return made
  }

  async function dropTable(name: string) {
    await (await sqlPool(spec.target())).schema.dropTableIfExists(name)
  }

  test.group(`SQL plugin: ${label}`, (group) => {
    group.each.timeout(30_000)

    test('Create table, Create record, Get data, Update, Delete', async ({ assert, cleanup }) => {
      const name = table()
      cleanup(() => dropTable(name))
      const made = await createPeople(name)
      assert.deepEqual(made.errors, [])
      assert.equal(made.logs[0].description, `Table "${name}" created successfully.`)

      for (const [id, person, age] of [
        ['1', 'Ada', '36'],
        ['2', 'Alan', '41'],
        ['3', 'Grace', '85'],
      ]) {
        const added = await run('Create record', {
          tableName: name,
          fields: [
            { key: 'id', value: id },
            { key: 'name', value: person },
            { key: 'age', value: age },
            { key: 'joined', value: '2024-05-01' },
          ],
        })
        assert.deepEqual(
          added.logs.map((l) => l.description),
          ['Record added successfully']
        )
      }

      const one = await run(
        'Get data',
        {
          tableName: name,
          conditions: [{ column: 'name', operator: 'Equal to', value: '{{Name}}' }],
          responseMapping: [
            { field: 'age', variableId: 'v_age' },
            { field: 'nickname', variableId: 'v_name' },
          ],
        },
        {
          variables: [
            ...variables().filter((v) => v.id !== 'v_name'),
            { id: 'v_name', name: 'Name', value: 'Alan' },
          ],
        }
      )
      assert.deepEqual(one.errors, [])
      assert.deepEqual(one.variablesSet, [{ id: 'v_age', value: 41 }])
      assert.deepInclude(one.logs, {
        status: 'info',
        description: 'Field nickname does not exist in the table',
        details: undefined,
      })

      const many = await run('Get data', {
        tableName: name,
        conditions: [{ column: 'name', operator: 'Starts with', value: 'A' }],
        responseMapping: [{ field: 'name', variableId: 'v_name' }],
      })
      assert.sameMembers(many.variablesSet[0].value as string[], ['Ada', 'Alan'])
      assert.equal((many.output as any)?.rowCount, 2)

      const older = await run('Get data', {
        tableName: name,
        conditions: [{ column: 'age', operator: 'Greater than', value: '40' }],
        responseMapping: [{ field: 'name', variableId: 'v_name' }],
      })
      assert.sameMembers(older.variablesSet[0].value as string[], ['Alan', 'Grace'])

      const none = await run('Get data', {
        tableName: name,
        conditions: [{ column: 'name', operator: 'Equal to', value: 'Nobody' }],
        responseMapping: [{ field: 'name', variableId: 'v_name' }],
      })
      assert.deepEqual(none.logs, [
        {
          status: 'info',
          description: "Couldn't find any rows matching the filter",
          details: undefined,
        },
      ])
      assert.deepEqual(none.variablesSet, [])

      const updated = await run('Update', {
        tableName: name,
        conditions: [{ column: 'id', operator: 'Equal to', value: '3' }],
        fields: [{ key: 'age', value: '86' }],
      })
      assert.deepEqual(
        updated.logs.map((l) => l.description),
        ['Record updated successfully']
      )
      const deleted = await run('Delete', {
        tableName: name,
        conditions: [{ column: 'name', operator: 'Contains', value: 'la' }],
      })
      assert.deepEqual(
        deleted.logs.map((l) => l.description),
        ['Record deleted successfully']
      )

      const rows = await (await sqlPool(spec.target()))(name).select('id', 'age').orderBy('id')
      assert.deepEqual(
        rows.map((r: any) => [Number(r.id), Number(r.age)]),
        [
          [1, 36],
          [3, 86],
        ]
      )
    })

    test('empty fields or conditions do nothing; Create table needs columns', async ({
      assert,
      cleanup,
    }) => {
      const name = table()
      cleanup(() => dropTable(name))
      await createPeople(name)
      for (const [action, options] of [
        ['Create record', { tableName: name, fields: [{ key: 'name', value: '' }] }],
        ['Get data', { tableName: name, conditions: [] }],
        ['Update', { tableName: name, conditions: [], fields: [{ key: 'name', value: 'x' }] }],
        ['Delete', { tableName: name, conditions: [{ column: '', value: '1' }] }],
      ] as const) {
        const outcome = await run(action, options)
        assert.deepEqual(outcome.logs, [], action)
      }
      assert.deepEqual((await run('Create table', { tableName: table(), columns: [] })).errors, [
        'No columns provided for table creation.',
      ])
      assert.deepEqual(
        (await run('Create table', { tableName: table(), dynamicVariable: 'v_columns' })).errors,
        ['Dynamic data variable is undefined or empty.']
      )
    })

    test('Create table from dynamic data in a variable', async ({ assert, cleanup }) => {
      const name = table()
      cleanup(() => dropTable(name))
      const outcome = await run(
        'Create table',
        { tableName: name, dynamicVariable: 'v_columns' },
        {
          variables: [{ id: 'v_columns', name: 'Columns', value: '{"email":"a@b.c","visits":3}' }],
        }
      )
      assert.deepEqual(outcome.errors, [])
      const db = await sqlPool(spec.target())
      assert.isTrue(await db.schema.hasColumn(name, 'email'))
      assert.isTrue(await db.schema.hasColumn(name, 'visits'))
    })

    test('a variable holding "1; DROP TABLE x" changes no schema', async ({ assert, cleanup }) => {
      const name = table()
      cleanup(async () => {
        await dropTable(name)
        await dropTable('fc_victim')
      })
      await createPeople(name)
      const db = await sqlPool(spec.target())
      await db.schema.dropTableIfExists('fc_victim')
      await db.schema.createTable('fc_victim', (t) => t.integer('id'))

      // As a value: bound, stored as text (a VARCHAR column) or refused by the column type.
      const stored = await run('Create record', {
        tableName: name,
        fields: [
          { key: 'id', value: '9' },
          { key: 'name', value: '{{Evil}}' },
        ],
      })
      assert.deepEqual(stored.errors, [])
      const found = await run('Get data', {
        tableName: name,
        conditions: [{ column: 'name', value: '{{Evil}}' }],
        responseMapping: [{ field: 'name', variableId: 'v_name' }],
      })
      assert.deepEqual(found.variablesSet, [{ id: 'v_name', value: '1; DROP TABLE fc_victim' }])
      await run('Delete', { tableName: name, conditions: [{ column: 'id', value: '{{Evil}}' }] })
      // As a table or column name: refused before any SQL is built.
      const asTable = await run('Get data', {
        tableName: '{{Evil}}',
        conditions: [{ column: 'id', value: '1' }],
      })
      assert.deepEqual(asTable.errors, ['Find failed'])
      assert.match(String(asTable.logs[0].details), /Invalid table name/)
      const asColumn = await run('Update', {
        tableName: name,
        conditions: [{ column: '{{Evil}}', value: '1' }],
        fields: [{ key: 'name', value: 'x' }],
      })
      assert.deepEqual(asColumn.errors, ['Update failed'])
      // As a parameter of a query of one's own.
      const query = await run(
        'Run query',
        {
          query: `SELECT name FROM ${name} WHERE name = ${spec.placeholder(1)}`,
          parameters: [{ value: '{{Evil}}' }],
          responseMapping: [{ field: 'name', variableId: 'v_name' }],
        },
        { surface: 'workflow' }
      )
      assert.deepEqual(query.errors, [])
      assert.deepEqual(query.variablesSet, [{ id: 'v_name', value: '1; DROP TABLE fc_victim' }])

      assert.isTrue(await db.schema.hasTable('fc_victim'))
      assert.isTrue(await db.schema.hasTable(name))
      assert.isTrue(await db.schema.hasColumn(name, 'name'))
    })

    test('Run query: bound parameters, one statement, workflows only', async ({
      assert,
      cleanup,
    }) => {
      const name = table()
      cleanup(() => dropTable(name))
      await createPeople(name)
      const insert = await run(
        'Run query',
        {
          query: `INSERT INTO ${name} (id, name, age) VALUES (${spec.placeholder(1)}, ${spec.placeholder(2)}, ${spec.placeholder(3)})`,
          parameters: [{ value: '5' }, { value: '{{Name}}' }, { value: '50' }],
        },
        {
          surface: 'workflow',
          variables: [{ id: 'v_name', name: 'Name', value: "O'Brien" }],
        }
      )
      assert.deepEqual(insert.errors, [])
      assert.equal((insert.output as any).rowCount, 1)
      const select = await run(
        'Run query',
        {
          query: `SELECT id, name FROM ${name} WHERE age >= ${spec.placeholder(1)}`,
          parameters: [{ value: '18' }],
        },
        { surface: 'workflow' }
      )
      assert.deepEqual(
        (select.output as any).rows.map((r: any) => [Number(r.id), r.name]),
        [[5, "O'Brien"]]
      )
      const two = await run(
        'Run query',
        { query: `SELECT 1; DROP TABLE ${name}` },
        { surface: 'workflow' }
      )
      assert.deepEqual(two.errors, ['Query failed'])
      assert.isTrue(await (await sqlPool(spec.target())).schema.hasTable(name))
      const inBot = await run('Run query', { query: 'SELECT 1' })
      assert.deepEqual(inBot.errors, ['Run query is a workflow action'])
    })

    test('a failure is logged with the message and the flow goes on', async ({ assert }) => {
      const outcome = await run('Get data', {
        tableName: 'fc_no_such_table',
        conditions: [{ column: 'id', value: '1' }],
      })
      assert.deepEqual(outcome.errors, ['Find failed'])
      assert.match(String(outcome.logs[0].details), /fc_no_such_table/)
    })

    test('50 runs share the pool of the credential', async ({ assert, cleanup }) => {
      const name = table()
      cleanup(() => dropTable(name))
      await createPeople(name)
      const before = await sqlConnectionsOpened(spec.target())
      const runs = []
      for (let i = 0; i < 50; i++) {
        runs.push(
          run('Create record', {
            tableName: name,
            fields: [
              { key: 'id', value: String(100 + i) },
              { key: 'name', value: `n${i}` },
            ],
          })
        )
        if (runs.length === 10) await Promise.all(runs.splice(0))
      }
      await Promise.all(runs)
      const opened = await sqlConnectionsOpened(spec.target())
      assert.isAtMost(opened, SQL_POOL_MAX)
      assert.isAtMost(opened - before, SQL_POOL_MAX)
      const count = await (await sqlPool(spec.target()))(name).count({ n: '*' })
      assert.equal(Number((count[0] as any).n), 50)
    })
  })
}

test.group('SQL plugins: forms', () => {
  test('Run query is offered in the workflow editor only', ({ assert }) => {
    const actions = (surface: 'bot' | 'workflow') =>
      (formOf(postgresPlugin, surface).actions ?? []).map((action) => action.name)
    assert.deepEqual(actions('bot'), [
      'Create table',
      'Create record',
      'Get data',
      'Update',
      'Delete',
    ])
    assert.include(actions('workflow'), 'Run query')
  })
})

test.group('PostgreSQL: connections seen by the server', () => {
  test('50 runs open at most the pool size of server connections', async ({ assert }) => {
    const application = `fc_pool_${process.pid}_${Date.now()}`
    const url = `${POSTGRES_URL}?application_name=${application}`
    const runs = Array.from({ length: 50 }, () =>
      runPluginTest({
        folder: engines[0].folder,
        surface: 'workflow',
        action: 'Run query',
        options: { query: 'SELECT pg_sleep(0.01), $1::int AS n', parameters: [{ value: '1' }] },
        credentials: { url },
      })
    )
    const outcomes = await Promise.all(runs)
    assert.deepEqual(
      outcomes.flatMap((outcome) => outcome.errors),
      []
    )
    const db = await sqlPool(engines[0].target())
    const seen = await db.raw(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ?',
      [application]
    )
    assert.isAtLeast(seen.rows[0].n, 1)
    assert.isAtMost(seen.rows[0].n, SQL_POOL_MAX)
  })
})

test.group('SQL plugins: network rule', () => {
  test('database hosts resolving to internal addresses are refused unless allowed', async ({
    assert,
    cleanup,
  }) => {
    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => env.set('ALLOW_INTERNAL_HTTP', true))
    for (const spec of engines.filter((e) => e.engine !== 'sqlite')) {
      const outcome = await runPluginTest({
        folder: spec.folder,
        surface: 'workflow',
        action: 'Get data',
        options: { tableName: 'anything', conditions: [{ column: 'id', value: '1' }] },
        // "localhost" resolves to loopback: refused on the resolved address, not the name.
        credentials:
          spec.engine === 'postgres'
            ? { url: 'postgres://root@localhost:5432/test' }
            : { mysqlURL: 'mysql://root@localhost:3306/test' },
      })
      assert.deepEqual(outcome.errors, ['Find failed'])
      assert.match(String(outcome.logs[0].details), /internal network addresses are not allowed/)
    }
  })
})
