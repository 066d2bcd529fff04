import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { recoverRuns } from '#services/workflows/run_recovery'
import { parseState } from '#engine/workflow/state'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { closeQueue, queueDriver, startWorkers } from '#queue/queue'
import type { InProcessDriver } from '#queue/in_process_driver'

/**
 * How a run writes (issue 6 "Performance"): records of replayable nodes are batched with the
 * run's record in one transaction; a node that reaches outside the run finds the records of
 * what ran before it, its own 'running' record and a checkpoint already stored, so a crash
 * while it runs goes on from there and repeats nothing else.
 */

/** The SQL statements the app sends while `work` runs (the knex 'query' event). */
async function statementsDuring(work: () => Promise<unknown>) {
  const knex = db.connection().getWriteClient()
  const seen: string[] = []
  const stampReads: string[] = []
  // Reads of the capability stamp on their own (docs/architecture.md, "Capabilities"): a run
  // brings the stamp along with its workflow, so its plan checks (one per node) read none.
  const listener = (query: { sql: string }) => {
    if (/^select \(select version from capability_stamps/i.test(query.sql))
      stampReads.push(query.sql)
    else seen.push(query.sql)
  }
  knex.on('query', listener)
  try {
    await work()
  } finally {
    knex.off('query', listener)
  }
  return Object.assign(seen, { stampReads })
}

function nodesOf(runId: string) {
  return WorkflowRunNode.query().where('runId', runId).orderBy('id')
}

const SET_AND_RESPOND = [
  { id: 'hook', type: 'webhook-trigger', options: { responseMode: 'responseNode' } },
  { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: '7' } },
  {
    id: 'respond',
    type: 'respond-to-webhook',
    options: { statusCode: 200, body: '{ "n": {{N}} }' },
  },
]

test.group('Workflow run writes', () => {
  test('replayable nodes are written in one batch with the run record', async ({ assert }) => {
    const workflow = await publishedWorkflow(SET_AND_RESPOND, {
      variables: [{ id: 'v1', name: 'N' }],
    })
    // A first run fills the process's caches (the marketplace's plan switches).
    await executeRun(await createRun(workflow, 'webhook', { body: {} }))
    const runId = await createRun(workflow, 'webhook', { body: {} })
    let outcome: Awaited<ReturnType<typeof executeRun>> = null
    const sql = await statementsDuring(async () => {
      outcome = await executeRun(runId)
    })
    assert.deepEqual(outcome!.response?.body, { n: 7 })
    assert.lengthOf(sql.stampReads, 0, 'the stamp came with the run and its workflow')
    assert.match(sql[0], /capability_stamps/)

    const statements = sql.filter((text) => !/^(begin|commit)/i.test(text))
    const nodeWrites = statements.filter((text) => /workflow_run_nodes/i.test(text))
    assert.lengthOf(nodeWrites, 1, 'one insert for the three node records')
    const dialect = db.connection().dialect.name
    // No lock on the workflow's row: the claim names a slot (run_leases.ts).
    assert.isFalse(
      statements.some((text) => /for update|for share|advisory/i.test(text)),
      statements.join('\n')
    )
    // MySQL counts the running runs with a plain read before its claim (withinCount).
    const counts = dialect === 'mysql' ? 1 : 0
    if (dialect === 'postgres') {
      // Read the run with its workflow, claim, then records and run in one statement.
      assert.lengthOf(statements, 3, statements.join('\n'))
      assert.match(nodeWrites[0], /^with nodes as \(insert/i)
    } else {
      // Read the run with its workflow, claim, then records and run in one transaction.
      assert.lengthOf(statements, 4 + counts, statements.join('\n'))
      assert.match(nodeWrites[0], /^insert/i)
      // better-sqlite3 runs the two prepared writes in a transaction of the driver's own
      // (prepared_statements.ts), which knex does not see as begin/commit statements.
      assert.lengthOf(
        sql.filter((text) => /^(begin|commit)/i.test(text)),
        dialect === 'better-sqlite3' ? 0 : 2
      )
    }
    assert.match(
      statements.find((text) => /^update .workflow_runs. set/i.test(text)) ?? '',
      /.slot. = /,
      'the claim names a slot'
    )
    assert.isFalse(
      sql.some((s) => /update .workflow_runs. set .state./i.test(s)),
      'no checkpoint between replayable nodes'
    )

    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'success')
    assert.isNull(run.state)
    assert.isNotNull(run.finishedAt)
    const nodes = await nodesOf(runId)
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.status]),
      [
        ['hook', 'success'],
        ['set', 'success'],
        ['respond', 'success'],
      ]
    )
    assert.deepEqual(nodes[0].output, { body: {} })
    assert.isNotNull(nodes[1].finishedAt)
    assert.isAtLeast(nodes[1].durationMs ?? -1, 0)
  })

  test('a webhook call answered by its run: four statements in all on PostgreSQL', async ({
    assert,
    client,
    cleanup,
  }) => {
    await startWorkers()
    cleanup(() => closeQueue())
    const workflow = await publishedWorkflow(SET_AND_RESPOND, {
      variables: [{ id: 'v1', name: 'N' }],
    })
    const call = () => client.post(`/api/v1/workflows/${workflow.id}/webhook`).json({ a: 1 })
    // The run's last write may follow the answer: wait for `count` runs recorded as done.
    const runsDone = async (count: number) => {
      for (let i = 0; i < 100; i++) {
        const runs = await db.from('workflow_runs').where('workflow_id', workflow.id)
        if (runs.length === count && runs.every((run) => run.status === 'success')) return
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    ;(await call()).assertStatus(200)
    // The warm-up run's own end must not land among the statements counted below.
    await runsDone(1)
    let answer: Awaited<ReturnType<typeof call>> | undefined
    const sql = await statementsDuring(async () => {
      answer = await call()
      await runsDone(2)
    })
    answer!.assertStatus(200)
    assert.deepEqual(answer!.body(), { n: 7 })
    assert.lengthOf(sql.stampReads, 0, 'the stamp came with the workflow read')
    const postgres = db.connection().dialect.name === 'postgres'
    const own = sql.filter(
      // Not this test's own polling.
      (text) => !/^(begin|commit)/i.test(text) && !/^select \* from .workflow_runs./.test(text)
    )
    // The workflow read once; on PostgreSQL the run inserted already claimed with a slot
    // (the idle in-process queue starts its job at once, which takes the run as it was
    // written), then records and run in one statement. Elsewhere: inserted, claimed, a
    // transaction of two (MySQL counts the running runs with a read before its claim).
    const mysql = db.connection().dialect.name === 'mysql'
    assert.lengthOf(own, postgres ? 3 : mysql ? 6 : 5, own.join('\n'))
    assert.match(own[0], /from .workflows./)
    assert.isFalse(
      own.some((text) => /for update|advisory/i.test(text)),
      'no lock on the workflow'
    )
    if (postgres) {
      assert.match(own[1], /^insert into .?workflow_runs/)
      assert.match(own[1], /slot/)
      assert.match(own[1], /status = \$\d+\) < \$\d+ returning id$/)
      assert.match(own[2], /^with nodes as \(insert/i)
    } else {
      assert.match(own[1], /^insert into .?workflow_runs/)
      assert.match(own[mysql ? 3 : 2], /^update .workflow_runs./)
    }
  })

  test('a run handed to an idle in-process queue is inserted claimed, within the cap', async ({
    assert,
    cleanup,
  }) => {
    await startWorkers()
    cleanup(() => closeQueue())
    const workflow = await publishedWorkflow(SET_AND_RESPOND, {
      variables: [{ id: 'v1', name: 'N' }],
      settings: { concurrency: 1 },
    })
    const statusOf = async (id: string) =>
      (await db.from('workflow_runs').where('id', id).first()).status
    const first = await createRun(workflow, 'webhook', { body: {} }, { handOff: true })
    const postgres = db.connection().dialect.name === 'postgres'
    assert.equal(await statusOf(first), postgres ? 'running' : 'queued')
    // The cap of 1 is taken on PostgreSQL: the next run is inserted queued.
    const second = await createRun(workflow, 'webhook', { body: {} }, { handOff: true })
    assert.equal(await statusOf(second), 'queued')
    if (postgres) {
      // Its job would have to wait for the first: it stays queued.
      assert.isTrue((await executeRun(second))?.deferred)
    }

    const done = await executeRun(first)
    assert.equal(done?.status, 'success')
    assert.deepEqual(done?.response?.body, { n: 7 })
    const run = await WorkflowRun.findOrFail(first)
    assert.isNotNull(run.startedAt)
    assert.isAtLeast(run.durationMs ?? -1, 0)
    assert.equal((await executeRun(second))?.status, 'success')
    assert.deepEqual(
      (await nodesOf(first)).map((node) => node.nodeId),
      ['hook', 'set', 'respond']
    )
  })

  test('calls at the same moment claim no more runs than the queue starts at once', async ({
    assert,
    cleanup,
  }) => {
    await startWorkers()
    cleanup(() => closeQueue())
    const workflow = await publishedWorkflow(SET_AND_RESPOND, {
      variables: [{ id: 'v1', name: 'N' }],
      settings: { concurrency: 500 },
    })
    const slots = (queueDriver() as InProcessDriver).freeSlots('workflow.run')
    const ids = await Promise.all(
      Array.from({ length: slots + 8 }, () =>
        createRun(workflow, 'webhook', { body: {} }, { handOff: true })
      )
    )
    const rows = await db.from('workflow_runs').whereIn('id', ids).select('status')
    const running = rows.filter((row) => row.status === 'running').length
    if (db.connection().dialect.name === 'postgres') assert.equal(running, slots)
    else assert.equal(running, 0)
    for (const id of ids) assert.equal((await executeRun(id))?.status, 'success')
  })

  test('a published workflow is parsed and compiled once per version', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'a', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
    ])
    const first = await loadWorkflow(workflow.id)
    const again = await loadWorkflow(workflow.id)
    assert.exists(first?.graph)
    assert.strictEqual(again?.graph, first?.graph)
    assert.strictEqual(again?.executableWorkflow, first?.executableWorkflow)

    // Published again (another process may have done it): the stored text differs.
    const republished = { ...first!.executableWorkflow!, root_block: 'a' }
    await db
      .from('workflows')
      .where('id', workflow.id)
      .update({ executable_workflow: JSON.stringify(republished) })
    const fresh = await loadWorkflow(workflow.id)
    assert.notStrictEqual(fresh?.graph, first?.graph)
    assert.equal(fresh?.graph?.root?.id, 'a')
    assert.equal(fresh?.executableWorkflow?.root_block, 'a')
  })

  test('a node that reaches outside starts with what ran before it stored', async ({
    assert,
    cleanup,
  }) => {
    let seenDuringCall: { state: any; nodes: [string, string][] } | null = null
    let runId = ''
    const server: Server = createServer(async (_request, response) => {
      const run = await db.from('workflow_runs').where('id', runId).first()
      const nodes = await db
        .from('workflow_run_nodes')
        .where('run_id', runId)
        .orderBy('id')
        .select('node_id', 'status')
      seenDuringCall = {
        state: run.state ? parseState(run.state) : null,
        nodes: nodes.map((row) => [row.node_id, row.status]),
      }
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ fine: true }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanup(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`

    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'set', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'x' } },
        { id: 'call', type: 'workflow-http-request', options: { method: 'GET', url } },
        { id: 'after', type: 'workflow-set-variable', options: { variableId: 'v1', value: 'y' } },
      ],
      { variables: [{ id: 'v1', name: 'N' }] }
    )
    runId = await createRun(workflow, 'manual', {})
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'success')

    assert.isNotNull(seenDuringCall)
    const during = seenDuringCall!
    assert.deepEqual(during.nodes, [
      ['trigger', 'success'],
      ['set', 'success'],
      ['call', 'running'],
    ])
    // The checkpoint before the call: going on from it runs the call again, nothing before.
    assert.deepEqual(
      during.state.queue.map((activation: { nodeId: string }) => activation.nodeId),
      ['call']
    )
    assert.equal(during.state.visits, 2)

    const nodes = await nodesOf(runId)
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.status]),
      [
        ['trigger', 'success'],
        ['set', 'success'],
        ['call', 'success'],
        ['after', 'success'],
      ]
    )
  })

  test('a run cut off during a call goes on from its checkpoint; the cut-off attempt stays recorded', async ({
    assert,
    cleanup,
  }) => {
    let calls = 0
    const server: Server = createServer((_request, response) => {
      calls++
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ call: calls }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanup(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'call', type: 'workflow-http-request', options: { method: 'GET', url } },
      ],
      { settings: { timeout: 1 } }
    )
    const runId = await createRun(workflow, 'manual', {})
    // What a process that died during the call leaves: the trigger's record, the call's open
    // record and the checkpoint before it, and a run still "running" long ago.
    const state = {
      version: 1,
      runId,
      trigger: 'manual',
      input: {},
      variables: [],
      outputs: { trigger: {} },
      queue: [{ nodeId: 'call', arrivals: [{ from: 'trigger', output: {} }] }],
      parked: [],
      visits: 1,
      lastNodeId: 'trigger',
    }
    const long = DateTime.now()
      .minus({ minutes: 10 })
      .toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .from('workflow_runs')
      .where('id', runId)
      .update({
        status: 'running',
        state: JSON.stringify(state),
        started_at: long,
        updated_at: long,
      })
    await db.table('workflow_run_nodes').multiInsert([
      {
        run_id: runId,
        node_id: 'trigger',
        node_type: 'manual-trigger',
        status: 'success',
        attempts: 1,
      },
      {
        run_id: runId,
        node_id: 'call',
        node_type: 'workflow-http-request',
        status: 'running',
        attempts: 1,
      },
    ])

    assert.include((await recoverRuns()).queued, runId)
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'success')
    assert.equal(calls, 1, 'the call runs again once; the trigger does not')
    const nodes = await nodesOf(runId)
    // The attempt that was cut off stays in the history as such; the next one has its own.
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.status]),
      [
        ['trigger', 'success'],
        ['call', 'interrupted'],
        ['call', 'success'],
      ]
    )
    assert.isNotNull(nodes[1].finishedAt)
  })
})
