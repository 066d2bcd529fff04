import { test } from '@japa/runner'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { closeQueue, dispatch, startWorkers, useQueueDriver } from '#queue/queue'
import { InProcessDriver } from '#queue/in_process_driver'
import { createRun } from '#services/workflows/run_workflow'
import { runJob } from '#services/workflows/jobs'
import { startWorkflowRuntime } from '#services/workflows/runtime'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * A workflow's 2 s wait survives a server restart (issue 6, faults). The in-process queue
 * keeps the wait's timer job in memory, so a restart loses it: here the first "server" is a
 * queue driver that works the run until it parks and is then closed (what the web process
 * does when it stops); the second is a fresh driver plus the boot path of start/workflows.ts
 * (startWorkflowRuntime), whose sweep must re-dispatch the wait. Without that re-dispatch
 * the run stays waiting and these tests fail.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function statusOf(runId: string) {
  return (await WorkflowRun.findOrFail(runId)).status
}

async function waitForStatus(runId: string, status: string, ms: number) {
  const deadline = Date.now() + ms
  while ((await statusOf(runId)) !== status) {
    if (Date.now() > deadline) throw new Error(`run ${runId} is ${await statusOf(runId)}`)
    await sleep(50)
  }
}

/** One life of the server's queue: a fresh in-process driver working every job. */
async function bootQueue() {
  useQueueDriver(new InProcessDriver({ closeTimeoutMs: 2000 }))
  await startWorkers()
}

async function waitingWorkflowRun() {
  const workflow = await publishedWorkflow([
    { id: 'trigger', type: 'manual-trigger' },
    {
      id: 'pause',
      type: 'workflow-wait',
      options: { resume: 'interval', amount: 2, unit: 'seconds' },
    },
    { id: 'after', type: 'workflow-script', options: { code: 'return { resumed: input }' } },
  ])
  await bootQueue()
  const runId = await createRun(workflow, 'manual', { n: 1 })
  await dispatch(runJob, { runId })
  await waitForStatus(runId, 'waiting', 5000)
  return runId
}

async function assertFinishedOnce(assert: any, runId: string) {
  const run = await WorkflowRun.findOrFail(runId)
  assert.equal(run.status, 'success')
  const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
  assert.deepEqual(
    nodes.map((node) => [node.nodeId, node.status]),
    [
      ['trigger', 'success'],
      ['pause', 'success'],
      ['after', 'success'],
    ]
  )
}

test.group('Workflow wait across a restart', (group) => {
  group.each.teardown(async () => {
    await closeQueue()
  })

  test('down while the wait fell due: the boot sweep resumes it', async ({ assert }) => {
    const runId = await waitingWorkflowRun()
    const parkedAt = Date.now()
    // The server stops, its timer job with it.
    await closeQueue()
    await sleep(2600)
    assert.equal(await statusOf(runId), 'waiting', 'nothing resumes a run while down')

    await bootQueue()
    await startWorkflowRuntime()
    await waitForStatus(runId, 'success', 5000)
    await assertFinishedOnce(assert, runId)
    assert.isAtLeast(Date.now() - parkedAt, 2000)
  }).timeout(20_000)

  test('restarted before the wait was due: the boot re-arms its timer', async ({ assert }) => {
    const runId = await waitingWorkflowRun()
    const parkedAt = Date.now()
    await closeQueue()
    await bootQueue()
    await startWorkflowRuntime()
    assert.equal(await statusOf(runId), 'waiting', 'not before its time')
    // Well before the next periodic sweep (every 60 s): the boot itself set the timer.
    await waitForStatus(runId, 'success', 6000)
    assert.isAtLeast(Date.now() - parkedAt, 1900)
    await assertFinishedOnce(assert, runId)
  }).timeout(20_000)
})
