import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateCredential } from '#actions/credentials/create_credential'
import { newId } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { categoryOn } from '#plugins/define_plugin'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { compileExecutable } from '#shared/workflow/validate'
import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import { sqlPool } from '#sdk/data'
import type { AgentTool } from '#sdk/ai'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { startGroqStandIn } from '#tests/stand_ins/groq'
import { agentTools } from '../../plugins/sql-toolkit/runner.js'
import { checkReadOnly } from '../../plugins/sql-toolkit/lib/read_only.js'

/**
 * The SQL toolkit, a Tool node lending an LLM agent three tools on a PostgreSQL or MySQL
 * database: against the machine's PostgreSQL and MariaDB (the statement check, the
 * read-only transaction behind it, the row cap), then an agent workflow run whose model (a
 * Groq stand-in) calls the tools.
 */

const POSTGRES_URL = process.env.DATA_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test'
const MYSQL_URL = process.env.DATA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test'

test.group('SQL toolkit: the statement check', () => {
  test('reads pass; writes, second statements and session changes are refused', ({ assert }) => {
    for (const sql of [
      'SELECT * FROM orders',
      '  select 1;  ',
      'WITH big AS (SELECT * FROM orders WHERE total > 10) SELECT count(*) FROM big',
      'EXPLAIN SELECT 1',
      'SHOW TABLES',
      "SELECT 'insert into x; drop table y' AS text",
      'SELECT "update" FROM t -- delete everything',
      'SELECT $$;DROP TABLE x$$',
      '(SELECT 1) UNION (SELECT 2)',
    ]) {
      assert.doesNotThrow(() => checkReadOnly(sql), sql)
    }
    const refused: [string, RegExp][] = [
      ['INSERT INTO orders VALUES (1)', /not INSERT/],
      ['SELECT 1; DROP TABLE orders', /one statement/],
      ['SELECT 1 /* x */ ; COMMIT', /one statement/],
      ['WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', /DELETE is not/],
      ['SELECT * INTO copy FROM orders', /INTO is not/],
      ["SELECT * FROM orders INTO OUTFILE '/tmp/x'", /INTO is not/],
      ['EXPLAIN ANALYZE DELETE FROM orders', /ANALYZE is not/],
      ['SELECT * FROM orders FOR UPDATE', /UPDATE is not/],
      ['SET ROLE admin', /not SET/],
      ['', /empty/],
      ["SELECT 'open", /unterminated quote/],
      ['SELECT 1 /* open', /unterminated comment/],
    ]
    for (const [sql, message] of refused) {
      assert.throws(() => checkReadOnly(sql), message, sql)
    }
  })
})

const engines = [
  {
    engine: 'postgres' as const,
    action: 'PostgreSQL',
    credentials: { url: POSTGRES_URL },
  },
  {
    engine: 'mysql' as const,
    action: 'MySQL',
    credentials: { mysqlURL: MYSQL_URL },
  },
]

for (const spec of engines) {
  test.group(`SQL toolkit on ${spec.action}`, (group) => {
    const table = `fc_tk_${spec.engine}_${Math.random().toString(36).slice(2, 8)}`
    let tools: Record<string, AgentTool>
    group.setup(async () => {
      const pool = await sqlPool({
        engine: spec.engine,
        url: spec.engine === 'postgres' ? POSTGRES_URL : MYSQL_URL,
        allowInternal: true,
      })
      await pool.schema.createTable(table, (t) => {
        t.integer('id').primary()
        t.string('status', 40).notNullable()
        t.float('total')
      })
      await pool(table).insert(
        Array.from({ length: 5 }, (_, i) => ({
          id: i + 1,
          status: i % 2 ? 'open' : 'shipped',
          total: i * 10,
        }))
      )
      const made = (await agentTools({
        options: {
          action: spec.action,
          name: 'shop',
          description: 'Orders of the shop',
          maxRows: 3,
        },
        credentials: spec.credentials,
      } as any)) as AgentTool[]
      tools = Object.fromEntries(made.map((tool) => [tool.schema.name, tool]))
      return async () => {
        await pool.schema.dropTableIfExists(table)
        if (spec.engine === 'postgres') await pool.raw(`DROP SEQUENCE IF EXISTS ${table}_seq`)
        else await pool.raw(`DROP FUNCTION IF EXISTS ${table}_f`)
      }
    })

    test('three tools named after the prefix, described for the model', ({ assert }) => {
      assert.deepEqual(Object.keys(tools), [
        'shop_list_tables',
        'shop_describe_table',
        'shop_run_query',
      ])
      assert.include(tools.shop_run_query.schema.description, 'Orders of the shop')
      assert.deepEqual(tools.shop_describe_table.schema.parameters.required, ['table'])
    })

    test('list tables and describe one', async ({ assert }) => {
      const listed = JSON.parse(await tools.shop_list_tables.execute({}))
      assert.isTrue(listed.some((row: any) => row.name === table))
      const described = JSON.parse(await tools.shop_describe_table.execute({ table }))
      assert.deepEqual(
        described.columns.map((c: any) => [c.name, c.nullable, c.primaryKey]),
        [
          ['id', false, true],
          ['status', false, false],
          ['total', true, false],
        ]
      )
      assert.match(
        await tools.shop_describe_table.execute({ table: 'fc_no_such' }),
        /^Error: Table "fc_no_such" does not exist/
      )
      assert.match(
        await tools.shop_describe_table.execute({ table: `${table}; DROP TABLE ${table}` }),
        /^Error: Invalid table name/
      )
    })

    test('a read-only query answers rows, at most the configured number', async ({ assert }) => {
      const answer = JSON.parse(
        await tools.shop_run_query.execute({ query: `SELECT id, status FROM ${table} ORDER BY id` })
      )
      assert.deepEqual(answer, {
        rowCount: 5,
        rows: [
          { id: 1, status: 'shipped' },
          { id: 2, status: 'open' },
          { id: 3, status: 'shipped' },
        ],
        note: 'Only the first 3 rows are shown',
      })
      const failed = await tools.shop_run_query.execute({ query: `SELECT nope FROM ${table}` })
      assert.match(failed, /^Error: /)
    })

    test('writes are refused by the check, and by the read-only transaction behind it', async ({
      assert,
    }) => {
      for (const query of [
        `DELETE FROM ${table}`,
        `SELECT 1; DELETE FROM ${table}`,
        `UPDATE ${table} SET status = 'x'`,
      ]) {
        assert.match(await tools.shop_run_query.execute({ query }), /^Error: Only/)
      }
      // A statement that passes the check but writes: the transaction refuses it.
      const pool = await sqlPool({
        engine: spec.engine,
        url: spec.engine === 'postgres' ? POSTGRES_URL : MYSQL_URL,
        allowInternal: true,
      })
      let sneaky: string
      if (spec.engine === 'postgres') {
        await pool.raw(`CREATE SEQUENCE ${table}_seq`)
        sneaky = `SELECT nextval('${table}_seq')`
      } else {
        await pool.raw(
          `CREATE FUNCTION ${table}_f() RETURNS INT MODIFIES SQL DATA BEGIN DELETE FROM ${table}; RETURN 1; END`
        )
        sneaky = `SELECT ${table}_f()`
      }
      const refused = await tools.shop_run_query.execute({ query: sneaky })
      assert.match(refused, /^Error: .*read[- ]only/i)
      const [{ n }] =
        spec.engine === 'postgres'
          ? (await pool.raw(`SELECT count(*)::int AS n FROM ${table}`)).rows
          : (await pool.raw(`SELECT count(*) AS n FROM ${table}`))[0]
      assert.equal(Number(n), 5)
      // The pooled connection is clean afterwards: the next query reads.
      assert.match(await tools.shop_run_query.execute({ query: 'SELECT 1 AS one' }), /"one":1/)
    })
  })
}

test.group('SQL toolkit in an agent workflow', (group) => {
  let groq: Awaited<ReturnType<typeof startGroqStandIn>>
  group.each.setup(async () => {
    groq = await startGroqStandIn({ apiKey: 'gsk_toolkit' })
    return () => groq.close()
  })

  test('the agent lists, describes and queries a PostgreSQL table through the toolkit', async ({
    assert,
    cleanup,
  }) => {
    const table = `fc_tk_agent_${Math.random().toString(36).slice(2, 8)}`
    const pool = await sqlPool({ engine: 'postgres', url: POSTGRES_URL, allowInternal: true })
    await pool.schema.createTable(table, (t) => {
      t.integer('order_id')
      t.string('status')
    })
    cleanup(() => pool.schema.dropTableIfExists(table))
    await pool(table).insert({ order_id: 7, status: 'shipped' })

    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const model = await new CreateCredential().handle(user, workspace, {
      type: 'groq',
      name: 'Groq',
      data: { apiKey: 'gsk_toolkit', baseUrl: groq.baseUrl },
    })
    const database = await new CreateCredential().handle(user, workspace, {
      type: 'postgres',
      name: 'Shop',
      data: { url: POSTGRES_URL },
    })
    const blocks: WorkflowBlock[] = [
      { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
      {
        id: 'agent',
        type: 'llm-agent',
        graphCoordinates: { x: 300, y: 0 },
        options: { userQuery: '{{$input.question}}' },
      },
      {
        id: 'model',
        type: 'groq',
        graphCoordinates: { x: 300, y: 200 },
        options: { action: 'Chat model', credentialsId: model.id, model: 'llama-3.1-8b-instant' },
      },
      {
        id: 'sql',
        type: 'sql-toolkit',
        graphCoordinates: { x: 500, y: 200 },
        options: { action: 'PostgreSQL', credentialsId: database.id, name: 'shop' },
      },
    ]
    const edges: WorkflowEdge[] = [
      { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'agent' } },
      {
        id: 'a1',
        from: { blockId: 'agent' },
        to: { blockId: 'model' },
        isAttachment: true,
        attachmentName: 'model',
      },
      {
        id: 'a2',
        from: { blockId: 'agent' },
        to: { blockId: 'sql' },
        isAttachment: true,
        attachmentName: 'tools',
      },
    ]
    const registry = await pluginRegistry()
    const executable = compileExecutable({ blocks, edges }, (type) => {
      const plugin = registry.get(type)
      return plugin ? categoryOn(plugin, 'workflow') : undefined
    })
    const id = newId()
    const now = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
    await db.table('workflows').insert({
      id,
      workspace_id: workspace.id,
      created_by: user.id,
      name: 'Orders agent',
      status: 'PUBLISHED',
      is_active: true,
      blocks: JSON.stringify(blocks),
      edges: JSON.stringify(edges),
      variables: JSON.stringify([]),
      settings: JSON.stringify({}),
      executable_workflow: JSON.stringify(executable),
      created_at: now,
      updated_at: now,
    })
    groq.reply(
      {
        toolCalls: [
          { name: 'shop_list_tables', arguments: {} },
          { name: 'shop_describe_table', arguments: { table } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'shop_run_query',
            arguments: { query: `SELECT status FROM ${table} WHERE order_id = 7` },
          },
          { name: 'shop_run_query', arguments: { query: `DROP TABLE ${table}` } },
        ],
      },
      { content: 'Order 7 has shipped.' }
    )
    const runId = await createRun((await loadWorkflow(id))!, 'manual', {
      question: 'Where is order 7?',
    })
    const outcome = await executeRun(runId)
    const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
    assert.equal(outcome?.status, 'success', JSON.stringify(nodes.map((n) => n.logs)))
    const agent = nodes.find((node) => node.nodeId === 'agent')!
    const calls = (agent.output as any).toolCalls as { name: string; output: string }[]
    assert.deepEqual(
      calls.map((call) => call.name),
      ['shop_list_tables', 'shop_describe_table', 'shop_run_query', 'shop_run_query']
    )
    assert.include(calls[0].output, table)
    assert.include(calls[1].output, '"name":"order_id"')
    assert.deepEqual(JSON.parse(calls[2].output), { rowCount: 1, rows: [{ status: 'shipped' }] })
    assert.match(calls[3].output, /^Error: Only queries that read are allowed/)
    assert.equal((agent.output as any).output, 'Order 7 has shipped.')
    assert.isTrue(await pool.schema.hasTable(table))
    const tools = groq.requests[0].body.tools.map((tool: any) => tool.function.name)
    assert.deepEqual(tools, ['shop_list_tables', 'shop_describe_table', 'shop_run_query'])
  }).timeout(30_000)
})
