import { test } from '@japa/runner'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import db from '@adonisjs/lucid/services/db'
import DevMail from '#models/dev_mail'
import WorkflowRun from '#models/workflow_run'
import { claimQueued } from '#services/workflows/run_claims'
import { createRun, executeRun, resumeRun } from '#services/workflows/run_workflow'
import { recoverRuns } from '#services/workflows/run_recovery'
import { onRunEvent, type RunEvent } from '#services/workflows/run_events'
import { resumeJob } from '#services/workflows/jobs'
import { useQueueDriver } from '#queue/queue'
import { RetryLater, type QueueDriver } from '#queue/types'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { dropLease, SlotBook } from '#services/workflows/run_leases'
import { nodesOf } from '#tests/functional/workflow_run_fixtures'

/**
 * run_workflow.ts against the database: run and node records, waits, the failure e-mail,
 * the concurrency cap, timeouts, recovery and retention. Workflows rows are written
 * directly, as publishing would leave them.
 */

test.group('Workflow runs', () => {
  test('a run records its status, output, duration and every node', async ({ assert }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'name',
          type: 'workflow-set-variable',
          options: { variableId: 'v-name', value: '{{$input.name}}' },
        },
        { id: 'script', type: 'workflow-script', options: { code: 'return { hello: Name }' } },
      ],
      { variables: [{ id: 'v-name', name: 'Name' }] }
    )
    const runId = await createRun(workflow, 'manual', { name: 'Ada' })
    const queued = await WorkflowRun.findOrFail(runId)
    assert.equal(queued.status, 'queued')
    assert.deepEqual(queued.input, { name: 'Ada' })

    const events: RunEvent[] = []
    const stop = onRunEvent(runId, (event) => events.push(event))
    const outcome = await executeRun(runId)
    stop()

    assert.equal(outcome?.status, 'success')
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'success')
    assert.equal(run.trigger, 'manual')
    assert.deepEqual(run.output, { hello: 'Ada' })
    assert.isNull(run.error)
    assert.isNull(run.state)
    assert.isNotNull(run.startedAt)
    assert.isNotNull(run.finishedAt)
    assert.isAtLeast(run.durationMs!, 0)

    const nodes = await nodesOf(runId)
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.nodeType, node.status, node.attempts]),
      [
        ['trigger', 'manual-trigger', 'success', 1],
        ['name', 'workflow-set-variable', 'success', 1],
        ['script', 'workflow-script', 'success', 1],
      ]
    )
    assert.deepEqual(nodes[1].input, { name: 'Ada' })
    assert.deepEqual(nodes[2].output, { hello: 'Ada' })
    assert.equal(nodes[1].logs?.[0].description, 'Name = Ada')
    assert.isNotNull(nodes[2].finishedAt)

    assert.deepEqual(
      events.map((event) => `${event.nodeId ?? 'run'}:${event.status}`),
      [
        'run:running',
        'trigger:running',
        'trigger:success',
        'name:running',
        'name:success',
        'script:running',
        'script:success',
        'run:success',
      ]
    )
    // Executing again does nothing: the run is no longer queued.
    assert.equal((await executeRun(runId))?.status, 'success')
    assert.lengthOf(await nodesOf(runId), 3)
  })

  test('an untitled node that fails is named in the run’s error as builders know its type', async ({
    assert,
  }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        // Stored as 'Webhook' (the format's name); its plugin is the HTTP request.
        {
          id: 'call',
          type: 'Webhook',
          options: { webhook: { method: 'GET', url: 'http://127.0.0.1:9/down' } },
        },
      ],
      { name: 'Untitled call' }
    )
    const outcome = await executeRun(await createRun(workflow, 'api', null))
    assert.equal(outcome?.status, 'error')
    assert.match(outcome!.error!, /^HTTP request: /)
  })

  test('a failed run is recorded and mailed to the creator when asked', async ({ assert }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'boom',
          type: 'workflow-script',
          title: 'Compute',
          options: { code: 'throw new Error("no stock")' },
        },
        { id: 'never', type: 'workflow-script', options: { code: 'return 1' } },
      ],
      {
        name: 'Stock sync',
        settings: { errorHandling: { retryCount: 1, retryDelay: 10, failureNotification: true } },
      }
    )
    const runId = await createRun(workflow, 'api', null)
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'error')
    assert.equal(outcome?.error, 'Compute: Error: no stock')
    const nodes = await nodesOf(runId)
    assert.deepEqual(
      nodes.map((node) => [node.nodeId, node.status, node.attempts]),
      [
        ['trigger', 'success', 1],
        ['boom', 'error', 2],
      ]
    )
    const mail = await DevMail.query()
      .where('to', workflow.email)
      .orderBy('id', 'desc')
      .firstOrFail()
    assert.equal(mail.subject, 'Workflow "Stock sync" failed')
    assert.include(mail.text, 'Compute: Error: no stock')
    assert.include(mail.text, runId)
  })

  test('no e-mail without failureNotification', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'boom', type: 'workflow-script', options: { code: 'throw new Error("x")' } },
    ])
    const runId = await createRun(workflow, 'manual', null)
    assert.equal((await executeRun(runId))?.status, 'error')
    assert.isNull(await DevMail.query().where('to', workflow.email).first())
  })

  test('a timer wait parks the run and resumeRun finishes it', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      {
        id: 'wait',
        type: 'workflow-wait',
        options: { resume: 'interval', amount: 1, unit: 'seconds' },
      },
      { id: 'after', type: 'workflow-script', options: { code: 'return { after: input.n }' } },
    ])
    const runId = await createRun(workflow, 'manual', { n: 5 })
    const parked = await executeRun(runId)
    assert.equal(parked?.status, 'waiting')
    assert.isString(parked?.resumeAt)
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'waiting')
    assert.isNotNull(run.resumeAt)
    assert.isNotNull(run.state)
    assert.deepEqual(
      (await nodesOf(runId)).map((node) => `${node.nodeId}:${node.status}`),
      ['trigger:success', 'wait:waiting']
    )

    // Too early: nothing happens.
    assert.isTrue((await resumeRun(runId))?.notResumed)
    assert.deepEqual((await recoverRuns(new Date(Date.now() + 5000))).due.includes(runId), true)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const done = await resumeRun(runId)
    assert.equal(done?.status, 'success')
    assert.deepEqual(done?.output, { after: 5 })
    const nodes = await nodesOf(runId)
    assert.deepEqual(
      nodes.map((node) => `${node.nodeId}:${node.status}`),
      ['trigger:success', 'wait:success', 'after:success']
    )
    assert.isAtLeast(nodes[1].durationMs!, 900)
    const finished = await WorkflowRun.findOrFail(runId)
    assert.isNull(finished.resumeAt)
    assert.isNull(finished.state)
  }).timeout(20_000)

  test('a webhook wait resumes with the call for its node only', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'approval', type: 'workflow-wait', options: { resume: 'webhook' } },
      { id: 'after', type: 'workflow-script', options: { code: 'return input.body' } },
    ])
    const runId = await createRun(workflow, 'manual', null)
    const parked = await executeRun(runId)
    assert.equal(parked?.status, 'waiting')
    assert.equal(parked?.waitingForWebhookNode, 'approval')
    assert.isNull(parked?.resumeAt)

    assert.isTrue((await resumeRun(runId, {}, { nodeId: 'after' }))?.notResumed)
    assert.isTrue((await resumeRun(runId))?.notResumed)
    const done = await resumeRun(runId, { body: { approved: true } }, { nodeId: 'approval' })
    assert.equal(done?.status, 'success')
    assert.deepEqual(done?.output, { approved: true })
    assert.isNull((await WorkflowRun.findOrFail(runId)).waitingForWebhookNode)
  })

  test('at the concurrency cap a run stays queued until a slot frees', async ({ assert }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'work', type: 'workflow-script', options: { code: 'return 1' } },
      ],
      { settings: { concurrency: 1 } }
    )
    const busy = await WorkflowRun.create({
      workflowId: workflow.id,
      trigger: 'manual',
      status: 'running',
    })
    const runId = await createRun(workflow, 'manual', null)
    const deferred = await executeRun(runId)
    assert.isTrue(deferred?.deferred)
    assert.equal((await WorkflowRun.findOrFail(runId)).status, 'queued')

    busy.status = 'success'
    await busy.save()
    assert.equal((await executeRun(runId))?.status, 'success')
  })

  test('a resumed run takes a slot too: at the cap the call waits in its resume job', async ({
    assert,
    client,
  }) => {
    const dispatched: { name: string; payload: any; options: any }[] = []
    const recorder: QueueDriver = {
      name: 'in-process',
      async dispatch(name, payload, options) {
        dispatched.push({ name, payload, options })
        return 'job'
      },
      async repeat() {},
      async removeRepeat() {},
      async exists() {
        return false
      },
      async work() {},
      async close() {},
    }
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'approval', type: 'workflow-wait', options: { resume: 'webhook' } },
        { id: 'after', type: 'workflow-script', options: { code: 'return input.body' } },
      ],
      { settings: { concurrency: 1 } }
    )
    const runId = await createRun(workflow, 'manual', null)
    assert.equal((await executeRun(runId))?.status, 'waiting')
    const busy = await WorkflowRun.create({
      workflowId: workflow.id,
      trigger: 'manual',
      status: 'running',
    })
    useQueueDriver(recorder)
    try {
      const answer = await client
        .post(`/api/v1/workflows/${workflow.id}/webhook/runs/${runId}`)
        .json({ approved: true })
      answer.assertStatus(200)
      assert.equal((await WorkflowRun.findOrFail(runId)).status, 'waiting')
      assert.lengthOf(dispatched, 1)
      assert.deepInclude(dispatched[0], { name: resumeJob.name })
      assert.deepInclude(dispatched[0].payload, { runId, nodeId: 'approval' })
      assert.deepEqual(dispatched[0].payload.payload.body, { approved: true })

      // The job runs once the slot is free, with the call it kept.
      const context = { jobId: 'j', attempt: 1, signal: new AbortController().signal }
      const retry: unknown = await resumeJob.handler(dispatched[0].payload, context).catch((e) => e)
      assert.instanceOf(retry, RetryLater)
      busy.status = 'success'
      await busy.save()
      await resumeJob.handler(dispatched[0].payload, context)
      const run = await WorkflowRun.findOrFail(runId)
      assert.equal(run.status, 'success')
      assert.deepEqual(run.output, { approved: true })
    } finally {
      useQueueDriver(null)
    }
  })

  test('claims at the same moment never take more slots than the cap', async ({
    assert,
    cleanup,
  }) => {
    // Calls are held until released: the runs that got a slot keep it meanwhile.
    const held: ServerResponse[] = []
    const server = createServer((_request, response) => held.push(response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanup(() => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    })
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'call', type: 'workflow-http-request', options: { method: 'POST', url } },
      ],
      { settings: { concurrency: 3 } }
    )
    const ids: string[] = []
    for (let i = 0; i < 12; i++) ids.push(await createRun(workflow, 'manual', { i }))
    // As workers and web processes would: every claim at once, each on its own connection.
    const outcomes = Promise.all(ids.map((id) => executeRun(id)))
    const started = Date.now()
    while (held.length < 3 && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await new Promise((resolve) => setTimeout(resolve, 300))
    const running = await db
      .from('workflow_runs')
      .where('workflow_id', workflow.id)
      .where('status', 'running')
      .count('* as total')
      .first()
    assert.equal(Number(running?.total), 3)
    assert.lengthOf(held, 3)

    for (const response of held) response.end('{}')
    const results = await outcomes
    assert.lengthOf(
      results.filter((outcome) => outcome?.status === 'success'),
      3
    )
    assert.lengthOf(
      results.filter((outcome) => outcome?.deferred),
      9
    )
  })

  test('claims from two processes at the same moment never take more slots than the cap', async ({
    assert,
    cleanup,
  }) => {
    // A second process: its own connection pool and its own book of slots, knowing nothing
    // of this one's. Only the database keeps the two from taking the same slot.
    const name = `second-${Date.now()}`
    db.manager.add(name, db.getRawConnection(db.primaryConnectionName)!.config)
    const second = { client: db.connection(name), book: new SlotBook() }
    const first = { client: db.connection(), book: new SlotBook() }
    const claimedIds: string[] = []
    cleanup(async () => {
      for (const id of claimedIds) dropLease(id)
      await db.manager.close(name)
    })
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        { id: 'work', type: 'workflow-script', options: { code: 'return 1' } },
      ],
      { settings: { concurrency: 3 } }
    )
    const runningSlots = async () =>
      (
        await db
          .from('workflow_runs')
          .where('workflow_id', workflow.id)
          .where('status', 'running')
          .select('slot')
      ).map((row) => Number(row.slot))

    const waiting = new Set<string>()
    for (let i = 0; i < 16; i++) waiting.add(await createRun(workflow, 'manual', { i }))
    // Three rounds: each time, every waiting run is claimed at once from both processes;
    // the runs that got a slot then finish, as if elsewhere (the books never hear of it).
    for (let round = 0; round < 3; round++) {
      const runs = await WorkflowRun.query().whereIn('id', [...waiting])
      const results = await Promise.all(
        runs.map((run, index) =>
          claimQueued(run, 3, new Date(), index % 2 === 0 ? first : second).then((claimed) => ({
            id: run.id,
            claimed,
          }))
        )
      )
      const claimed = results.filter((result) => result.claimed).map((result) => result.id)
      claimedIds.push(...claimed)
      assert.lengthOf(claimed, 3, `round ${round}`)
      const slots = await runningSlots()
      assert.sameMembers(slots, [0, 1, 2], `round ${round}`)
      for (const id of claimed) waiting.delete(id)
      await db
        .from('workflow_runs')
        .whereIn('id', claimed)
        .update({ status: 'success', claimed_by: null, lease_expires_at: null })
    }
    assert.lengthOf(await runningSlots(), 0)
    assert.equal(
      Number(
        (
          await db
            .from('workflow_runs')
            .where('workflow_id', workflow.id)
            .where('status', 'queued')
            .count('* as total')
            .first()
        )?.total
      ),
      16 - 9
    )
  })
})
