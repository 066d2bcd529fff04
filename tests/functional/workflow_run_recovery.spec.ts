import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import WorkflowRun from '#models/workflow_run'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { pruneRuns } from '#services/workflows/run_pruning'
import { recoverRuns } from '#services/workflows/run_recovery'
import { onRunResponse } from '#services/workflows/run_events'
import { CONCURRENCY_RETRY_MS, resumeJob, runJob } from '#services/workflows/jobs'
import { useQueueDriver } from '#queue/queue'
import { RetryLater, type QueueDriver } from '#queue/types'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { nodesOf } from '#tests/functional/workflow_run_fixtures'

test.group('Workflow runs: timeouts, recovery, pruning and the run job', () => {
  test('the workflow timeout cuts off the script in flight and stops the run', async ({
    assert,
  }) => {
    const workflow = await publishedWorkflow(
      [
        { id: 'trigger', type: 'manual-trigger' },
        {
          id: 'slow',
          type: 'workflow-script',
          options: { code: 'await new Promise((resolve) => setTimeout(resolve, 5000)); return 1' },
        },
        { id: 'never', type: 'workflow-script', options: { code: 'return 2' } },
      ],
      { settings: { timeout: 1 } }
    )
    const runId = await createRun(workflow, 'manual', null)
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'error')
    assert.equal(outcome?.error, 'Run timed out')
    const nodes = await nodesOf(runId)
    assert.deepEqual(
      nodes.map((node) => `${node.nodeId}:${node.status}`),
      ['trigger:success', 'slow:error']
    )
    // The run's signal reaches the sandbox: the isolate is freed at the timeout, not 4 s later.
    assert.deepEqual(
      nodes[1].logs?.map((log) => log.description),
      ['AbortError: The script was cancelled while it ran', 'Run timed out']
    )
  }).timeout(20_000)

  test('an interrupted run goes back to queued and continues where it stopped', async ({
    assert,
  }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'work', type: 'workflow-script', options: { code: 'return input.n + 1' } },
    ])
    const runId = await createRun(workflow, 'manual', { n: 1 })
    const shutdown = new AbortController()
    shutdown.abort()
    const stopped = await executeRun(runId, shutdown.signal)
    assert.equal(stopped?.status, 'queued')
    assert.isNotNull((await WorkflowRun.findOrFail(runId)).state)

    const done = await executeRun(runId)
    assert.equal(done?.status, 'success')
    assert.equal(done?.output, 2)
  })

  test('stale running runs are recovered; unpublished workflows fail the run', async ({
    assert,
  }) => {
    const workflow = await publishedWorkflow([{ id: 'trigger', type: 'manual-trigger' }])
    const stale = await WorkflowRun.create({
      workflowId: workflow.id,
      trigger: 'manual',
      status: 'running',
    })
    const old = DateTime.now().minus({ hours: 1 }).toFormat(db.connection().dialect.dateTimeFormat)
    await db.from('workflow_runs').where('id', stale.id).update({ updated_at: old })
    const fresh = await WorkflowRun.create({
      workflowId: workflow.id,
      trigger: 'manual',
      status: 'running',
    })

    const { queued } = await recoverRuns()
    assert.include(queued, stale.id)
    assert.notInclude(queued, fresh.id)
    assert.equal((await WorkflowRun.findOrFail(stale.id)).status, 'queued')
    assert.equal((await executeRun(stale.id))?.status, 'success')

    await db.from('workflows').where('id', workflow.id).update({ executable_workflow: null })
    const runId = (
      await WorkflowRun.create({ workflowId: workflow.id, trigger: 'api', status: 'queued' })
    ).id
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'error')
    assert.equal(outcome?.error, 'The workflow is not published')
  })

  test('pruning deletes finished runs past retentionDays, node records with them', async ({
    assert,
  }) => {
    const workflow = await publishedWorkflow([{ id: 'trigger', type: 'manual-trigger' }], {
      settings: { logging: { retentionDays: 2 } },
    })
    const old = await executeRun(await createRun(workflow, 'manual', null))
    const recent = await executeRun(await createRun(workflow, 'manual', null))
    const waiting = await WorkflowRun.create({
      workflowId: workflow.id,
      trigger: 'manual',
      status: 'waiting',
    })
    const threeDaysAgo = DateTime.now()
      .minus({ days: 3 })
      .toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .from('workflow_runs')
      .whereIn('id', [old!.runId, waiting.id])
      .update({ created_at: threeDaysAgo })
    assert.lengthOf(await nodesOf(old!.runId), 1)

    const deleted = await pruneRuns()
    assert.isAtLeast(deleted, 1)
    assert.isNull(await WorkflowRun.find(old!.runId))
    assert.lengthOf(await nodesOf(old!.runId), 0)
    assert.isNotNull(await WorkflowRun.find(recent!.runId))
    assert.isNotNull(await WorkflowRun.find(waiting.id))
  })

  test('the run job says what comes next: the same job again at the cap, a timer resume', async ({
    assert,
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
    useQueueDriver(recorder)
    try {
      const workflow = await publishedWorkflow(
        [
          { id: 'trigger', type: 'manual-trigger' },
          {
            id: 'wait',
            type: 'workflow-wait',
            options: { resume: 'interval', amount: 5, unit: 'minutes' },
          },
        ],
        { settings: { concurrency: 1 } }
      )
      const context = { jobId: 'j', attempt: 1, signal: new AbortController().signal }
      const first = await createRun(workflow, 'schedule', null)
      await runJob.handler({ runId: first }, context)
      const run = await WorkflowRun.findOrFail(first)
      assert.equal(run.status, 'waiting')
      assert.deepInclude(dispatched[0], { name: resumeJob.name, payload: { runId: first } })
      assert.approximately(dispatched[0].options.delayMs, 5 * 60_000, 5000)
      assert.equal(dispatched[0].options.jobId, `${first}:${run.resumeAt!.toUTC().toISO()}`)

      // A waiting run does not hold a slot; a running one does.
      await WorkflowRun.create({ workflowId: workflow.id, trigger: 'manual', status: 'running' })
      const second = await createRun(workflow, 'schedule', null)
      // The job itself waits for a slot (RetryLater): no copy of it is queued.
      const retry: unknown = await runJob.handler({ runId: second }, context).catch((e) => e)
      assert.instanceOf(retry, RetryLater)
      assert.equal((retry as RetryLater).delayMs, CONCURRENCY_RETRY_MS)
      assert.lengthOf(dispatched, 1)
      assert.equal((await WorkflowRun.findOrFail(second)).status, 'queued')
    } finally {
      useQueueDriver(null)
    }
  })

  test('a respond-to-webhook node is announced while the run goes on', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'webhook-trigger' },
      {
        id: 'respond',
        type: 'respond-to-webhook',
        options: { statusCode: 201, body: '{"got": "{{$input.body.id}}"}' },
      },
      { id: 'after', type: 'workflow-script', options: { code: 'return "later"' } },
    ])
    const runId = await createRun(workflow, 'webhook', { method: 'POST', body: { id: 'x1' } })
    const responses: unknown[] = []
    const stop = onRunResponse(runId, (event) => responses.push(event.response))
    const outcome = await executeRun(runId)
    stop()
    assert.deepEqual(responses, [{ statusCode: 201, body: { got: 'x1' } }])
    assert.deepEqual(outcome?.response, { statusCode: 201, body: { got: 'x1' } })
    assert.equal(outcome?.output, 'later')
  })
})
