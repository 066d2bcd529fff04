import env from '#start/env'

/** Reading a server-sent events stream of the test server (@adonisjs/transmit) as a browser would. */

const BASE = `http://${env.get('HOST')}:${env.get('PORT')}`

export interface StreamMessage<P = any> {
  channel: string
  payload: P
}

/** Opens GET /__transmit/events as a browser's EventSource would and collects its messages. */
export async function openStream(uid: string) {
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
