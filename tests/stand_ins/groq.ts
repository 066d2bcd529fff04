import type { IncomingMessage } from 'node:http'
import {
  sendJson,
  startStandIn,
  type StandInExchange,
  type StandInRequest,
} from './stand_in_server.js'

/**
 * A local stand-in for Groq's OpenAI-compatible API (/openai/v1). It checks what a client
 * of that protocol must send (bearer key, JSON body with a model and well-formed messages
 * and tools, no streaming) and answers the completions the test queues, in order. A
 * request it refuses gets a 400 naming the problem, so a test sees it as a provider error.
 */

export type QueuedReply =
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | {
      toolCalls: { name: string; arguments: Record<string, unknown> | string }[]
      usage?: { prompt_tokens: number; completion_tokens: number }
    }
  | { status: number; error: string }
  /** The connection is cut without an answer (a network failure for the client). */
  | { drop: true }

export type RecordedRequest = StandInRequest

/** A body that is not JSON is kept as sent, so a test can see what went wrong. */
function record({ req, url, text, body, isJson }: StandInExchange): RecordedRequest {
  const kept = isJson ? body : text || undefined
  return { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body: kept }
}

function problemsOf(req: IncomingMessage, body: any, apiKey: string): string[] {
  const problems: string[] = []
  if (req.headers['content-type'] !== 'application/json') problems.push('content-type')
  if (!body || typeof body !== 'object') return [...problems, 'body is not a JSON object']
  if (typeof body.model !== 'string' || !body.model) problems.push('model missing')
  if (body.stream !== false && body.stream !== undefined) problems.push('stream must be off')
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    problems.push('messages missing')
  } else {
    for (const message of body.messages) {
      if (!['system', 'user', 'assistant', 'tool'].includes(message?.role))
        problems.push(`bad role ${message?.role}`)
      if (message.role === 'tool' && typeof message.tool_call_id !== 'string')
        problems.push('tool message without tool_call_id')
      if (message.role === 'tool' && typeof message.content !== 'string')
        problems.push('tool message content must be text')
    }
  }
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) problems.push('tools must be a list')
    for (const tool of body.tools ?? []) {
      if (tool?.type !== 'function' || typeof tool.function?.name !== 'string')
        problems.push('tool without a function name')
      if (tool?.function?.parameters?.type !== 'object')
        problems.push(`tool ${tool?.function?.name} parameters must be an object schema`)
    }
  }
  if (req.headers.authorization !== `Bearer ${apiKey}`) problems.push('authorization')
  return problems
}

export async function startGroqStandIn(options: { apiKey: string }) {
  const queue: QueuedReply[] = []
  let callIds = 0
  const standIn = await startStandIn(
    ({ req, res, url, recorded, requests }) => {
      const body = recorded.body
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(401, {
          error: {
            message: 'Invalid API Key',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        })
      }
      if (req.method !== 'POST' || url.pathname !== '/openai/v1/chat/completions') {
        return send(404, { error: { message: `Unknown path ${url.pathname}` } })
      }
      const problems = problemsOf(req, body, options.apiKey)
      if (problems.length > 0) {
        return send(400, { error: { message: `Bad request: ${problems.join(', ')}` } })
      }
      const reply = queue.shift()
      if (!reply) return send(500, { error: { message: 'The stand-in has no reply queued' } })
      if ('drop' in reply) return req.socket.destroy()
      if ('status' in reply) return send(reply.status, { error: { message: reply.error } })
      const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 }
      const message =
        'content' in reply
          ? { role: 'assistant', content: reply.content }
          : {
              role: 'assistant',
              content: null,
              tool_calls: reply.toolCalls.map((call) => ({
                id: `call_${++callIds}`,
                type: 'function',
                function: {
                  name: call.name,
                  arguments:
                    typeof call.arguments === 'string'
                      ? call.arguments
                      : JSON.stringify(call.arguments),
                },
              })),
            }
      send(200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [
          {
            index: 0,
            message,
            finish_reason: 'content' in reply ? 'stop' : 'tool_calls',
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      })
    },
    { record, closeConnections: true }
  )
  const { requests } = standIn
  return {
    baseUrl: `${standIn.baseUrl}/openai/v1`,
    requests,
    /** Replies for the next chat completions, in order. */
    reply: (...replies: QueuedReply[]) => queue.push(...replies),
    pending: () => queue.length,
    /** Forgets the requests seen and the replies still queued. */
    clear: () => {
      requests.length = 0
      queue.length = 0
    },
    close: standIn.close,
  }
}

/**
 * A small JSON API the agent's API tools call: it records each request and answers from
 * the handler the test gives.
 */
export async function startApiStandIn(
  handler: (request: RecordedRequest & { query: URLSearchParams }) => {
    status: number
    body: unknown
    /** Answer this late (a slow API, for timeouts). */
    delayMs?: number
  }
) {
  const standIn = await startStandIn(
    ({ res, recorded }) => {
      const answer = handler(recorded)
      const respond = () => {
        if (res.destroyed) return
        res.writeHead(answer.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(answer.body))
      }
      if (answer.delayMs) setTimeout(respond, answer.delayMs)
      else respond()
    },
    {
      record: (exchange: StandInExchange): RecordedRequest & { query: URLSearchParams } => ({
        ...record(exchange),
        query: exchange.url.searchParams,
      }),
      closeConnections: true,
    }
  )
  return { url: standIn.baseUrl, requests: standIn.requests, close: standIn.close }
}
