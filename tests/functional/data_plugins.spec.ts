import { test } from '@japa/runner'
import Bot from '#models/bot'
import { sqlPool } from '#sdk/data'
import { botWithVariables, createUser, firstWorkspaceOf, storeCredential } from '#tests/helpers'
import type User from '#models/user'
import { findTemplate } from '#services/bot_templates'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage } from '#shared/chat/types'
import { existsSync } from 'node:fs'
import { newId } from '#services/ids'
import { storageRoot } from '#services/storage'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * The data plugins as the app calls them: `/api/{postgres,mysql}/{call}` and the editor's
 * Test, with the workspace's stored credentials, for signed-in members only. Against the
 * machine's PostgreSQL and MariaDB.
 */

const POSTGRES_URL = process.env.DATA_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test'
const MYSQL_URL = process.env.DATA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test'

async function member() {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace }
}

async function storeCredentials(
  who: { user: User; workspace: { id: string } },
  type: string,
  data: Record<string, string>,
  id?: string
) {
  const owner = { workspaceId: who.workspace.id, userId: who.user.id }
  return (await storeCredential(owner, { type, data, id })).id
}

const tableName = (engine: string) => `fc_api_${engine}_${Math.random().toString(36).slice(2, 9)}`

for (const [engine, credentials, integer] of [
  ['postgres', { url: POSTGRES_URL }, 'INTEGER'],
  ['mysql', { mysqlURL: MYSQL_URL }, 'INT'],
] as const) {
  test.group(`Data plugin calls: /api/${engine}/*`, () => {
    test('create the table, insert, find, update and delete with stored credentials', async ({
      client,
      assert,
      cleanup,
    }) => {
      const who = await member()
      const credentialsId = await storeCredentials(who, engine, credentials)
      const name = tableName(engine)
      const db = await sqlPool({
        engine,
        url: engine === 'postgres' ? POSTGRES_URL : MYSQL_URL,
        allowInternal: true,
      })
      cleanup(() => db.schema.dropTableIfExists(name))
      const call = (path: string, body: Record<string, unknown>) =>
        client
          .post(`/api/${engine}/${path}`)
          .loginAs(who.user)
          .withCsrfToken()
          .json({ workspaceId: who.workspace.id, credentialsId, tableName: name, ...body })

      const created = await call('createTable', {
        columns: [
          { columnName: 'id', type: integer, isPrimaryKey: true },
          { columnName: 'email', type: 'VARCHAR', length: 120 },
        ],
      })
      created.assertStatus(200)
      assert.isTrue(created.body().success)
      assert.equal(created.body().logs[0].description, `Table "${name}" created successfully.`)

      for (const [id, email] of [
        ['1', 'ada@example.com'],
        ['2', 'alan@example.com'],
      ]) {
        const inserted = await call('insertRecord', {
          fields: [
            { key: 'id', value: id },
            { key: 'email', value: email },
          ],
        })
        inserted.assertStatus(200)
      }
      const found = await call('findRecord', {
        conditions: [{ column: 'email', operator: 'Contains', value: 'ada' }],
      })
      found.assertStatus(200)
      assert.deepEqual(
        found.body().data.rows.map((row: any) => [Number(row.id), row.email]),
        [[1, 'ada@example.com']]
      )
      const updated = await call('updateRecord', {
        conditions: [{ column: 'id', value: '2' }],
        fields: [{ key: 'email', value: 'turing@example.com' }],
      })
      assert.deepEqual(updated.body().data, { rowCount: 1 })
      const deleted = await call('deleteRecord', { conditions: [{ column: 'id', value: '1' }] })
      assert.deepEqual(deleted.body().data, { rowCount: 1 })
      assert.deepEqual(
        (await db(name).select('email')).map((row: any) => row.email),
        ['turing@example.com']
      )

      // A failure answers the plugin's words and the driver's message; never the URL.
      const failed = await call('findRecord', {
        tableName: 'fc_no_such_table',
        conditions: [{ column: 'id', value: '1' }],
      })
      failed.assertStatus(422)
      assert.equal(failed.body().error, 'Find failed')
      const everything = JSON.stringify([
        created.body(),
        found.body(),
        failed.body(),
        updated.body(),
      ])
      assert.notInclude(everything, engine === 'postgres' ? POSTGRES_URL : MYSQL_URL)
    })

    test('only signed-in members of the workspace may use its credentials', async ({ client }) => {
      const who = await member()
      const credentialsId = await storeCredentials(who, engine, credentials)
      const body = {
        workspaceId: who.workspace.id,
        credentialsId,
        tableName: 'anything',
        conditions: [{ column: 'id', value: '1' }],
      }
      const stranger = await member()
      const foreign = await client
        .post(`/api/${engine}/findRecord`)
        .loginAs(stranger.user)
        .withCsrfToken()
        .json(body)
      foreign.assertStatus(404)
      // Their own workspace does not hold these credentials.
      const elsewhere = await client
        .post(`/api/${engine}/findRecord`)
        .loginAs(stranger.user)
        .withCsrfToken()
        .json({ ...body, workspaceId: stranger.workspace.id })
      elsewhere.assertStatus(422)
      elsewhere.assertBodyContains({ success: false })
      const anonymous = await client
        .post(`/api/${engine}/findRecord`)
        .header('accept', 'application/json')
        .withCsrfToken()
        .json(body)
      anonymous.assertStatus(401)
      const unknownCall = await client
        .post(`/api/${engine}/dropTable`)
        .loginAs(who.user)
        .withCsrfToken()
        .json(body)
      unknownCall.assertStatus(404)
    })
  })
}

test.group('Data plugins: the editor Test action', () => {
  test('a PostgreSQL Get data block runs with the test values and shows the rows it maps', async ({
    client,
    assert,
    cleanup,
  }) => {
    const who = await member()
    const credentialsId = await storeCredentials(who, 'postgres', { url: POSTGRES_URL })
    const name = tableName('test')
    const db = await sqlPool({ engine: 'postgres', url: POSTGRES_URL, allowInternal: true })
    await db.schema.createTable(name, (t) => {
      t.integer('order_id')
      t.string('status')
    })
    cleanup(() => db.schema.dropTableIfExists(name))
    await db(name).insert([
      { order_id: 7, status: 'shipped' },
      { order_id: 8, status: 'packing' },
    ])
    const bot = await botWithVariables({ workspaceId: who.workspace.id, userId: who.user.id }, [
      { id: 'v_order', name: 'Order' },
      { id: 'v_status', name: 'Status' },
    ])
    const options = {
      action: 'Get data',
      credentialsId,
      tableName: name,
      conditions: [{ column: 'order_id', operator: 'Equal to', value: '{{Order}}' }],
      responseMapping: [{ field: 'status', variableId: 'v_status' }],
    }
    const tested = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ type: 'postgres', options, values: { v_order: '8' } })
    tested.assertStatus(200)
    assert.deepEqual(tested.body().variablesSet, [
      { id: 'v_status', name: 'Status', value: 'packing' },
    ])

    const stranger = await member()
    const refused = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(stranger.user)
      .withCsrfToken()
      .json({ type: 'postgres', options, values: { v_order: '8' } })
    refused.assertStatus(404)
  })
})

test.group('Data plugins: the leads template', () => {
  test('with the workspace database chosen, each chat adds a lead; values stay bound', async ({
    client,
    assert,
    cleanup,
  }) => {
    const who = await member()
    const credentialsId = await storeCredentials(who, 'postgres', { url: POSTGRES_URL })
    const name = tableName('leads')
    const db = await sqlPool({ engine: 'postgres', url: POSTGRES_URL, allowInternal: true })
    await db.schema.createTable(name, (t) => {
      t.string('name')
      t.string('email')
      t.string('company')
    })
    cleanup(() => db.schema.dropTableIfExists(name))

    // The template as a builder uses it: its block gets the database and the table.
    const template = (await findTemplate('leads-to-postgres'))!
    const bot = structuredClone(template.bot) as any
    const block = bot.groups.flatMap((g: any) => g.blocks).find((b: any) => b.type === 'postgres')
    assert.equal(block.options.action, 'Create record')
    block.options = { ...block.options, credentialsId, tableName: name }
    const token = (await new CreateApiToken().handle(who.user, `leads-${Date.now()}`)).value
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: who.workspace.id, bot: { ...bot, id: undefined } })
    imported.assertStatus(201)
    const botId = imported.body().bot.id
    ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)).assertStatus(200)
    const publicId = (await Bot.findOrFail(botId)).publicId

    const texts = (messages: ChatMessage[]) => messages.map(messageText)
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    const session = start.body().sessionId
    const say = (message: string) =>
      client.post(`/api/v1/sessions/${session}/continueChat`).json({ message })
    await say("Robert'); DROP TABLE students;--")
    await say('bobby@example.com')
    const last = await say('Tables Inc')
    last.assertStatus(200)
    assert.include(
      texts(last.body().messages).join(' '),
      'Someone from our team will write to bobby@example.com soon.'
    )
    assert.deepEqual(await db(name).select('name', 'email', 'company'), [
      {
        name: "Robert'); DROP TABLE students;--",
        email: 'bobby@example.com',
        company: 'Tables Inc',
      },
    ])
  })
})

test.group('Data plugins: workflow runs', () => {
  test('SQLite and Redis nodes run in a workflow, on the workspace file and the real Redis', async ({
    assert,
  }) => {
    const sqliteId = newId()
    const redisId = newId()
    const counter = `fc_run_${Math.random().toString(36).slice(2, 9)}`
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      {
        id: 'table',
        type: 'sqlite',
        options: {
          action: 'Create table',
          credentialsId: sqliteId,
          tableName: 'orders',
          columns: [
            { columnName: 'id', type: 'INTEGER', isPrimaryKey: true },
            { columnName: 'status', type: 'VARCHAR' },
          ],
        },
      },
      {
        id: 'insert',
        type: 'sqlite',
        options: {
          action: 'Create record',
          credentialsId: sqliteId,
          tableName: 'orders',
          fields: [
            { key: 'id', value: '1' },
            { key: 'status', value: 'shipped' },
          ],
        },
      },
      {
        id: 'count',
        type: 'redis',
        options: { action: 'Increment', credentialsId: redisId, key: counter, by: 2 },
      },
      {
        id: 'read',
        type: 'sqlite',
        options: {
          action: 'Get data',
          credentialsId: sqliteId,
          tableName: 'orders',
          conditions: [{ column: 'status', operator: 'Equal to', value: 'shipped' }],
        },
      },
    ])
    const owner = { user: workflow.user, workspace: { id: workflow.workspaceId } }
    await storeCredentials(owner, 'sqlite', { database: 'shop' }, sqliteId)
    await storeCredentials(
      owner,
      'redis',
      { url: process.env.DATA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/8' },
      redisId
    )
    const runId = await createRun(workflow, 'manual', null)
    const done = await executeRun(runId)
    assert.equal(done?.status, 'success', JSON.stringify(done))
    assert.deepEqual(done?.output, { rows: [{ id: 1, status: 'shipped' }], rowCount: 1 })
    assert.isTrue(
      existsSync(`${storageRoot()}/private/workspaces/${workflow.workspaceId}/sqlite/shop.sqlite3`)
    )
  }).timeout(20_000)
})
