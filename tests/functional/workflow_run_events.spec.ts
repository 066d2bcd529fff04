import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import env from '#start/env'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { runChannel } from '#services/workflows/run_channel'
import { createUser } from '#tests/helpers'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * Live run updates over server-sent events (@adonisjs/transmit): a real event stream read
 * from the test server, subscriptions authorised per workspace, and the node-by-node
 * statuses a run broadcasts on its workflow's channel.
 */

const BASE = `http://${env.get('HOST')}:${env.get('PORT')}`

interface StreamMessage {
  channel: string
  payload: { runId: string; nodeId: string | null; status: string; error: string | null }
}

/** Opens GET /__transmit/events as a browser's EventSource would and collects its messages. */
async function openStream(uid: string) {
  const controller = new AbortController()
  const response = await fetch(`${BASE}/__transmit/events?uid=${uid}`, {
    headers: { Accept: 'text/event-stream' },
    signal: controller.signal,
  })
  if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`)
  const messages: StreamMessage[] = []
  const waiters: (() => void)[] = []
  let buffer = ''
  const reading = (async () => {
    const decoder = new TextDecoder()
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n')
          if (data) messages.push(JSON.parse(data) as StreamMessage)
          for (const wake of waiters.splice(0)) wake()
        }
      }
    } catch {
      // Aborted by close().
    }
  })()
  return {
    contentType: response.headers.get('content-type'),
    messages,
    /** Resolves once `done` holds for the messages so far, or fails after `ms`. */
    async until(done: (all: StreamMessage[]) => boolean, ms = 5000) {
      const deadline = Date.now() + ms
      while (!done(messages)) {
        if (Date.now() > deadline) throw new Error(`stream: timed out; got ${messages.length}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 50)
        })
      }
    },
    async close() {
      controller.abort()
      await reading
    },
  }
}

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
