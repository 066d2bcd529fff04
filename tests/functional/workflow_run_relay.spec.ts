import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startRunEventRelay } from '#services/workflows/run_event_relay'
import {
  emitRunEvent,
  emitRunResponse,
  onRunEvent,
  onRunResponse,
  type RunEvent,
} from '#services/workflows/run_events'

/**
 * The run-event relay against the real Redis (127.0.0.1:6379): what a worker's runs emit is
 * published (what one turn of the event loop emitted in one message), and what another
 * process published reaches this process's listeners once.
 */

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'

test.group('Run event relay (Redis)', () => {
  test('publishes local events and delivers other processes ones', async ({ assert, cleanup }) => {
    const prefix = `test-relay-${randomUUID()}`
    const channel = `${prefix}:run-events`
    const relay = await startRunEventRelay({ url: REDIS_URL, prefix, listen: true })
    const other = new Redis(REDIS_URL)
    const spy = new Redis(REDIS_URL)
    cleanup(async () => {
      await relay.close()
      other.disconnect()
      spy.disconnect()
    })

    // What this process emits goes out on the channel (a worker's events reach the web).
    const published: any[] = []
    await spy.subscribe(channel)
    spy.on('message', (_channel, raw) => published.push(JSON.parse(raw)))
    const mine: RunEvent = { runId: 'r1', workflowId: 'w1', nodeId: 'a', status: 'success' }
    const heardHere: RunEvent[] = []
    const stopMine = onRunEvent('r1', (event) => heardHere.push(event))
    emitRunEvent(mine)
    emitRunResponse({ runId: 'r1', nodeId: 'respond', response: { statusCode: 201, body: 'ok' } })
    await waitFor(() => published.length === 1)
    // Emitted in one turn of the event loop: one publish, in order.
    assert.deepEqual(
      published[0].items.map((item: { kind: string }) => item.kind),
      ['event', 'response']
    )
    assert.deepEqual(published[0].items[0].event, mine)
    assert.equal(published[0].items[1].event.response.statusCode, 201)
    // Later events leave in a message of their own.
    const later: RunEvent = { runId: 'r1', workflowId: 'w1', nodeId: null, status: 'success' }
    emitRunEvent(later)
    await waitFor(() => published.length === 2)
    assert.deepEqual(published[1].items, [{ kind: 'event', event: later }])
    stopMine()
    await spy.unsubscribe(channel)
    // Its own echo is not delivered a second time.
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.lengthOf(heardHere, 2)

    // What another process published is delivered here, events and webhook answers.
    const theirs: RunEvent = { runId: 'r2', workflowId: 'w1', nodeId: null, status: 'success' }
    const events: RunEvent[] = []
    const responses: unknown[] = []
    const stopEvents = onRunEvent('r2', (event) => events.push(event))
    const stopResponses = onRunResponse('r2', (event) => responses.push(event.response))
    cleanup(() => {
      stopEvents()
      stopResponses()
    })
    const response = { runId: 'r2', nodeId: 'respond', response: { statusCode: 200, body: 'hi' } }
    await other.publish(
      channel,
      JSON.stringify({
        from: 'worker-1',
        items: [
          { kind: 'response', event: response },
          { kind: 'event', event: theirs },
        ],
      })
    )
    // Not JSON, or not of this format: ignored.
    await other.publish(channel, 'nonsense')
    await other.publish(channel, JSON.stringify({ from: 'worker-1', kind: 'event', event: theirs }))
    await waitFor(() => events.length === 1 && responses.length === 1)
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.deepEqual(events, [theirs])
    assert.deepEqual(responses, [{ statusCode: 200, body: 'hi' }])
  })
})

async function waitFor(done: () => boolean, ms = 3000) {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
