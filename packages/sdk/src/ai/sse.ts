/**
 * Server-sent events from a fetch Response (the streaming protocols of OpenAI-compatible
 * APIs, Anthropic, Mistral and Dify). Server only: used by plugin runners.
 */
export interface SseEvent {
  event?: string
  data: string
}

export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) return
  const decoder = new TextDecoder()
  let buffer = ''
  let event: string | undefined
  let data: string[] = []
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      let newline: number
      while ((newline = buffer.search(/\r\n|\n|\r/)) >= 0) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
        if (line === '') {
          if (data.length > 0) yield { event, data: data.join('\n') }
          event = undefined
          data = []
        } else if (line.startsWith(':')) {
          continue
        } else {
          const colon = line.indexOf(':')
          const name = colon < 0 ? line : line.slice(0, colon)
          const raw = colon < 0 ? '' : line.slice(colon + 1)
          const text = raw.startsWith(' ') ? raw.slice(1) : raw
          if (name === 'data') data.push(text)
          else if (name === 'event') event = text
        }
      }
      if (done) break
    }
    if (data.length > 0) yield { event, data: data.join('\n') }
  } finally {
    reader.releaseLock()
  }
}

/** The JSON of each event's data, skipping `[DONE]` and lines that are not JSON. */
export async function* readSseJson<T = any>(
  response: Response
): AsyncGenerator<{ event?: string; json: T }> {
  for await (const { event, data } of readSse(response)) {
    if (data === '[DONE]') return
    try {
      yield { event, json: JSON.parse(data) as T }
    } catch {
      // Keep-alive or comment payloads are not JSON: nothing to read.
    }
  }
}
