import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import {
  deliverRunEvent,
  deliverRunResponse,
  setRunEventForwarder,
  type RunEvent,
  type RunResponseEvent,
} from './run_events.js'

/**
 * Run events across processes (QUEUE_DRIVER=bullmq): runs execute in `node ace queue:work`
 * workers, while the browser's event stream and a webhook call waiting for its run's answer
 * are held by a web process. Every process publishes its runs' events on one Redis channel;
 * web processes subscribe and deliver what others published to their local listeners (the
 * SSE bridge, awaitResponse). Workers only publish: nobody listens there.
 */

interface RelayItem {
  kind: 'event' | 'response'
  event: RunEvent | RunResponseEvent
}

/** One publish: the events a process emitted in one turn of its event loop, in order. */
interface RelayMessage {
  from: string
  items: RelayItem[]
}

export interface RunEventRelayOptions {
  url: string
  /** QUEUE_PREFIX: installations sharing a Redis do not hear each other. */
  prefix?: string
  /** Subscribe too (web processes); publish-only otherwise. */
  listen: boolean
  onError?: (error: unknown) => void
}

export interface RunEventRelay {
  close(): Promise<void>
}

export async function startRunEventRelay(options: RunEventRelayOptions): Promise<RunEventRelay> {
  const { Redis: RedisClient } = await import('ioredis')
  const channel = `${options.prefix || 'flowcraft'}:run-events`
  const id = randomUUID()
  const report = options.onError ?? (() => {})
  // A publisher is connected on first use: ace commands that start no run open nothing.
  let publisher: Redis | null = null
  // A run emits several events in a row (its nodes, its answer, its end): they leave together,
  // one publish per turn of the event loop rather than one each (issue 6 "Performance").
  let outbox: RelayItem[] = []
  const send = () => {
    if (outbox.length === 0) return
    const items = outbox
    outbox = []
    publisher ??= new RedisClient(options.url, { maxRetriesPerRequest: null }).on('error', report)
    const message: RelayMessage = { from: id, items }
    publisher.publish(channel, JSON.stringify(message)).catch(report)
  }
  const publish = (kind: RelayItem['kind'], event: RunEvent | RunResponseEvent) => {
    if (outbox.length === 0) setImmediate(send)
    outbox.push({ kind, event })
  }
  let subscriber: Redis | null = null
  if (options.listen) {
    subscriber = new RedisClient(options.url, { maxRetriesPerRequest: null }).on('error', report)
    subscriber.on('message', (_channel: string, raw: string) => {
      let message: RelayMessage
      try {
        message = JSON.parse(raw) as RelayMessage
      } catch {
        return
      }
      // This process delivered its own events already, when it emitted them.
      if (message.from === id || !Array.isArray(message.items)) return
      for (const item of message.items) {
        if (item.kind === 'event') deliverRunEvent(item.event as RunEvent)
        else deliverRunResponse(item.event as RunResponseEvent)
      }
    })
    await subscriber.subscribe(channel)
  }
  setRunEventForwarder({
    event: (event) => publish('event', event),
    response: (event) => publish('response', event),
  })
  return {
    async close() {
      setRunEventForwarder(null)
      send()
      await Promise.all(
        [publisher?.quit(), subscriber?.quit()].map((done) => done?.catch(() => {}))
      )
    },
  }
}
