import { test } from '@japa/runner'
import { botWithVariables, createUser, firstWorkspaceOf, storeCredential } from '#tests/helpers'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { newId } from '#services/ids'
import { ObjectId } from 'bson'
import { startMongoStandIn, type MongoStandIn } from '#tests/stand_ins/mongodb'
import { closeMongoClients, partsOf } from '../../plugins/mongodb/lib/client.js'
import { checkedLookup } from '#services/sdk/data'

let server: MongoStandIn

test.group('MongoDB plugin: hosts', () => {
  test('the hosts of a connection URL, checked before connecting', ({ assert }) => {
    assert.deepEqual(
      partsOf('mongodb://u:p%40ss@db1.example.com:27017,[::1]:27018,db3/shop?tls=true'),
      {
        hosts: ['db1.example.com', '::1', 'db3'],
        database: 'shop',
        srv: false,
      }
    )
    assert.deepEqual(partsOf('mongodb+srv://cluster0.example.net/'), {
      hosts: ['cluster0.example.net'],
      database: '',
      srv: true,
    })
    assert.throws(() => partsOf('postgres://x/y'), /must start with mongodb:\/\//)
  })

  test('names the driver resolves itself (SRV targets, members) go through the rule', async ({
    assert,
  }) => {
    const answers: Record<string, string> = {
      'inside.example': '10.1.2.3',
      'outside.example': '93.184.216.34',
    }
    const lookup = checkedLookup({
      allowInternal: false,
      lookup: async (name) => [{ address: answers[name], family: 4 }],
    })
    const resolve = (name: string) =>
      new Promise<string>((resolvePromise, reject) =>
        lookup(name, {}, (error, address) => (error ? reject(error) : resolvePromise(address)))
      )
    assert.equal(await resolve('outside.example'), '93.184.216.34')
    await assert.rejects(
      () => resolve('inside.example'),
      /internal network addresses are not allowed/
    )
    const all = await new Promise<unknown>((done) =>
      lookup('outside.example', { all: true }, (_error, address) => done(address))
    )
    assert.deepEqual(all, [{ address: '93.184.216.34', family: 4 }])
  })
})

async function storeCredentials(workspaceId: string, userId: string, baseUrl: string, id?: string) {
  const record = { type: 'mongodb', name: 'Shop', id, data: { baseUrl } }
  return (await storeCredential({ workspaceId, userId }, record)).id
}

test.group('MongoDB plugin: with stored credentials', (group) => {
  group.each.setup(async () => {
    server = await startMongoStandIn()
    return async () => {
      await closeMongoClients()
      await server.close()
    }
  })

  test('a workflow run creates, inserts and finds documents', async ({ assert }) => {
    const credentialsId = newId()
    const base = { credentialsId, database: 'crm' }
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      {
        id: 'create',
        type: 'mongodb',
        options: {
          ...base,
          action: 'Create table',
          collection: 'leads',
          isStrict: true,
          columns: [
            { columnName: 'email', type: 'String' },
            { columnName: 'score', type: 'Integer' },
          ],
        },
      },
      {
        id: 'insert',
        type: 'mongodb',
        options: {
          ...base,
          action: 'Create record',
          collection: 'leads',
          fields: [
            { key: 'email', value: 'ada@example.com' },
            { key: 'score', value: '42' },
          ],
        },
      },
      {
        id: 'find',
        type: 'mongodb',
        options: {
          ...base,
          action: 'Search',
          collection: 'leads',
          conditions: [{ fieldName: 'score', value: '42' }],
          projection: [{ fieldName: '_id', include: false }],
        },
      },
    ])
    await storeCredentials(workflow.workspaceId, workflow.user.id, server.url, credentialsId)
    const done = await executeRun(await createRun(workflow, 'manual', null))
    assert.equal(done?.status, 'success', JSON.stringify(done))
    assert.deepEqual(done?.output, {
      documents: [{ email: 'ada@example.com', score: 42 }],
      count: 1,
    })
  }).timeout(20_000)

  test("the bot editor's Test runs a Find block with the stored credentials", async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const credentialsId = await storeCredentials(workspace.id, user.id, `${server.url}shop`)
    server.databases.set(
      'shop',
      new Map([
        [
          'orders',
          { documents: [{ _id: new ObjectId(), number: 8, status: 'packing' }], options: {} },
        ],
      ])
    )
    const bot = await botWithVariables({ workspaceId: workspace.id, userId: user.id }, [
      { id: 'v_order', name: 'Order' },
      { id: 'v_status', name: 'Status' },
    ])
    const options = {
      action: 'Search',
      credentialsId,
      collection: 'orders',
      conditions: [{ fieldName: 'number', value: '{{Order}}' }],
      responseMapping: [{ field: 'status', variableId: 'v_status' }],
    }
    // The collection has no validator: "8" is text and matches nothing; the test says so.
    const asText = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(user)
      .withCsrfToken()
      .json({ type: 'mongodb', options, values: { v_order: '8' } })
    asText.assertStatus(200)
    assert.deepEqual(asText.body().variablesSet, [])
    assert.equal(asText.body().logs[0].description, 'No matching documents found in the collection')

    server.databases.get('shop')!.get('orders')!.documents[0].number = '8'
    const tested = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(user)
      .withCsrfToken()
      .json({ type: 'mongodb', options, values: { v_order: '8' } })
    tested.assertStatus(200)
    assert.deepEqual(tested.body().variablesSet, [
      { id: 'v_status', name: 'Status', value: 'packing' },
    ])
    assert.notInclude(JSON.stringify(tested.body()), server.url)

    const stranger = await createUser()
    const refused = await client
      .post(`/api/bots/${bot.id}/blocks/test`)
      .loginAs(stranger)
      .withCsrfToken()
      .json({ type: 'mongodb', options, values: { v_order: '8' } })
    refused.assertStatus(404)
  })

  test("the credential's Test pings the server; a bad URL says why", async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const good = await storeCredentials(workspace.id, user.id, server.url)
    const ok = await client.post(`/api/credentials/${good}/test`).loginAs(user).withCsrfToken()
    ok.assertBody({ ok: true, message: 'Connected.' })
    assert.isTrue(server.commands.some((command) => command.name === 'ping'))
    const bad = await storeCredentials(workspace.id, user.id, 'http://127.0.0.1/')
    const ko = await client.post(`/api/credentials/${bad}/test`).loginAs(user).withCsrfToken()
    ko.assertBody({
      ok: false,
      message: 'The MongoDB connection URL must start with mongodb:// or mongodb+srv://',
    })
  })
})
