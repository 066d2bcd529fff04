import type { IncomingMessage } from 'node:http'
import { sendJson, startStandIn, type StandInExchange } from './stand_in_server.js'

/**
 * A small OpenAI chat-completions stand-in for the streaming tests, whose SSE answer can
 * be paced (`chunkDelayMs`) so a browser sees the bubble grow. It checks what the runner
 * and the streamer send like the real service: the bearer key (401 otherwise), a known
 * model (404 `model_not_found` otherwise), a non-empty messages list, and on the streamed
 * path `stream: true` with `stream_options.include_usage`. The same answer text is given
 * plain and streamed, so both paths of a chat can be compared.
 */

export const STREAM_USAGE = { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 }

export interface StreamStandInOptions {
  apiKey: string
  models: string[]
  /** The answer, cut into `chunks` for the SSE path. */
  chunks: string[]
  /** Pause before each SSE chunk. */
  chunkDelayMs?: number
}

export interface StreamStandInBehaviour {
  /** Every chat call answers this error. */
  failure?: { status: number; body: unknown }
  /** The SSE connection is cut after this many chunks (a provider dropping mid-answer). */
  cutAfterChunks?: number
}

export interface StreamStandInRequest {
  path: string
  headers: IncomingMessage['headers']
  json: any
}

export async function startOpenAiStreamStandIn(options: StreamStandInOptions) {
  let behaviour: StreamStandInBehaviour = {}
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  const standIn = await startStandIn(
    async ({ req, res, url, body: json }) => {
      const path = url.pathname
      const fail = (status: number, body: unknown) => sendJson(res, status, body)
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return fail(404, { error: { message: `Unknown path ${path}` } })
      }
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return fail(401, {
          error: { message: 'Incorrect API key provided', code: 'invalid_api_key' },
        })
      }
      if (behaviour.failure) return fail(behaviour.failure.status, behaviour.failure.body)
      if (!json || !options.models.includes(json.model)) {
        return fail(404, {
          error: { message: `The model '${json?.model}' does not exist`, code: 'model_not_found' },
        })
      }
      if (!Array.isArray(json.messages) || json.messages.length === 0) {
        return fail(400, { error: { message: "'messages' must be a non-empty array" } })
      }
      const text = options.chunks.join('')
      if (!json.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(
          JSON.stringify({
            id: 'chatcmpl-stream-stand-in',
            object: 'chat.completion',
            model: json.model,
            choices: [
              { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
            ],
            usage: STREAM_USAGE,
          })
        )
      }
      if (json.stream !== true || json.stream_options?.include_usage !== true) {
        return fail(400, { error: { message: 'Expected stream: true with include_usage' } })
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`)
      const base = {
        id: 'chatcmpl-stream-stand-in',
        object: 'chat.completion.chunk',
        model: json.model,
      }
      send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })
      for (const [index, chunk] of options.chunks.entries()) {
        if (options.chunkDelayMs) await sleep(options.chunkDelayMs)
        if (res.destroyed) return
        if (index === behaviour.cutAfterChunks) return res.destroy()
        send({ ...base, choices: [{ index: 0, delta: { content: chunk } }] })
      }
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
      send({ ...base, choices: [], usage: STREAM_USAGE })
      res.end('data: [DONE]\n\n')
    },
    {
      record: ({ req, url, body }: StandInExchange): StreamStandInRequest => ({
        path: url.pathname,
        headers: req.headers,
        json: body,
      }),
      closeConnections: true,
    }
  )
  return {
    baseUrl: `${standIn.baseUrl}/v1`,
    requests: standIn.requests,
    /** Every chat call answers this error until failWith(null). */
    failWith(status: number | null, body: unknown = { error: { message: 'Stand-in failure' } }) {
      behaviour = status === null ? {} : { failure: { status, body } }
    },
    /** Streams are cut after `chunks` chunks until cutAfter(null). */
    cutAfter(chunks: number | null) {
      behaviour = chunks === null ? {} : { cutAfterChunks: chunks }
    },
    close: standIn.close,
  }
}

export type OpenAiStreamStandIn = Awaited<ReturnType<typeof startOpenAiStreamStandIn>>
