import { test } from '@japa/runner'
import {
  applyRunMessage,
  parseStreamMessage,
  runChannel,
  type RunStreamMessage,
} from '../../../resources/features/workflow_editor/run_stream.js'
import { runChannel as serverRunChannel } from '#services/workflows/run_channel'

/** The editor's reading of the runs channel: what each message does to the canvas's run. */

const message = (runId: string, nodeId: string | null, status: string): RunStreamMessage => ({
  runId,
  nodeId,
  status,
  error: null,
})

test.group('Run stream (editor)', () => {
  test('the browser subscribes to the channel the server broadcasts on', ({ assert }) => {
    assert.equal(runChannel('wf1'), serverRunChannel('wf1'))
  })

  test('reads transmit frames of its channel only', ({ assert }) => {
    const channel = runChannel('wf1')
    const payload = { runId: 'r1', nodeId: 'a', status: 'running', error: null }
    assert.deepEqual(parseStreamMessage(JSON.stringify({ channel, payload }), channel), payload)
    assert.isNull(
      parseStreamMessage(JSON.stringify({ channel: runChannel('wf2'), payload }), channel)
    )
    assert.isNull(
      parseStreamMessage(JSON.stringify({ channel: '$$transmit/ping', payload: {} }), channel)
    )
    assert.isNull(parseStreamMessage('not json', channel))
  })

  test('follows a run node by node and settles it', ({ assert }) => {
    let run = applyRunMessage(null, message('r1', null, 'queued'))
    assert.deepEqual(run, { id: 'r1', status: 'queued', nodes: {}, error: null })
    run = applyRunMessage(run, message('r1', 'a', 'running'))
    assert.equal(run?.status, 'running')
    run = applyRunMessage(run, message('r1', 'a', 'success'))
    run = applyRunMessage(run, message('r1', 'b', 'running'))
    assert.deepEqual(run?.nodes, { a: 'success', b: 'running' })
    run = applyRunMessage(run, { ...message('r1', null, 'error'), error: 'b: boom' })
    assert.equal(run?.status, 'error')
    assert.equal(run?.error, 'b: boom')
  })

  test('another run takes the canvas only once the shown one has settled', ({ assert }) => {
    const running = applyRunMessage(null, message('r1', 'a', 'running'))
    // A webhook-started run while r1 goes on: ignored (same object back).
    assert.strictEqual(applyRunMessage(running, message('r2', null, 'queued')), running)
    const done = applyRunMessage(running, message('r1', null, 'success'))
    const next = applyRunMessage(done, message('r2', null, 'queued'))
    assert.deepEqual(next, { id: 'r2', status: 'queued', nodes: {}, error: null })
  })

  test('unknown statuses change nothing', ({ assert }) => {
    const run = applyRunMessage(null, message('r1', null, 'running'))
    assert.strictEqual(applyRunMessage(run, message('r1', 'a', 'exploded')), run)
    assert.strictEqual(applyRunMessage(run, message('r1', null, 'exploded')), run)
  })
})
