import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { runChannel } from '#services/workflows/run_channel'
import { createUser } from '#tests/helpers'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { openStream } from '#tests/functional/event_stream'

/**
 * Live run updates over server-sent events (@adonisjs/transmit): a real event stream read
 * from the test server, subscriptions authorised per workspace, and the node-by-node
 * statuses a run broadcasts on its workflow's channel.
 */

test.group('Workflow run events (SSE)', () => {
  test('only members of the workflow workspace may subscribe to its runs channel', async ({
    client,
  }) => {
    const workflow = await publishedWorkflow([{ id: 'trigger', type: 'manual-trigger' }])
    const stranger = await createUser()
    const channel = runChannel(workflow.id)

    const member = await client
      .post('/__transmit/subscribe')
      .json({ uid: randomUUID(), channel })
      .loginAs(workflow.user)
      .withCsrfToken()
    member.assertStatus(204)

    const outsider = await client
      .post('/__transmit/subscribe')
      .json({ uid: randomUUID(), channel })
      .loginAs(stranger)
      .withCsrfToken()
    outsider.assertStatus(400)

    // Unknown workflows are refused like other workspaces' ones.
    const unknown = await client
      .post('/__transmit/subscribe')
      .json({ uid: randomUUID(), channel: runChannel(randomUUID()) })
      .loginAs(workflow.user)
      .withCsrfToken()
    unknown.assertStatus(400)
  })

  test('a subscribed stream gets the run node by node; a refused one gets nothing', async ({
    client,
    assert,
  }) => {
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
    const stranger = await createUser()
    const memberUid = randomUUID()
    const strangerUid = randomUUID()
    const memberStream = await openStream(memberUid)
    const strangerStream = await openStream(strangerUid)
    try {
      assert.equal(memberStream.contentType, 'text/event-stream')
      const channel = runChannel(workflow.id)
      ;(
        await client
          .post('/__transmit/subscribe')
          .json({ uid: memberUid, channel })
          .loginAs(workflow.user)
          .withCsrfToken()
      ).assertStatus(204)
      ;(
        await client
          .post('/__transmit/subscribe')
          .json({ uid: strangerUid, channel })
          .loginAs(stranger)
          .withCsrfToken()
      ).assertStatus(400)

      const runId = await createRun(workflow, 'manual', { name: 'Ada' })
      await executeRun(runId)
      await memberStream.until((all) =>
        all.some((m) => m.payload.nodeId === null && m.payload.status === 'success')
      )

      const mine = memberStream.messages.filter((m) => m.channel === channel)
      assert.isTrue(mine.every((m) => m.payload.runId === runId))
      assert.deepEqual(
        mine.map((m) => `${m.payload.nodeId ?? 'run'}:${m.payload.status}`),
        [
          'run:queued',
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
      // Statuses only: outputs are read from the run record by those allowed to.
      assert.notProperty(mine[mine.length - 1].payload, 'output')
      assert.deepEqual(
        strangerStream.messages.filter((m) => m.channel === channel),
        []
      )
    } finally {
      await memberStream.close()
      await strangerStream.close()
    }
  })
})
