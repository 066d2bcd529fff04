import type { ServerResponse } from 'node:http'
import { sendJson as send, startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for a Dify app's API. Like Dify it checks the app key, refuses a body
 * without query or user, an unknown response_mode or a conversation it does not know, and
 * answers chat-messages in streaming mode with its events: message (chat apps) or
 * agent_message (agent apps) deltas, then message_end with the usage.
 */

export interface DifyStandInRequest {
  inputs: Record<string, unknown>
  query: string
  response_mode: string
  conversation_id?: string
  user: string
  files?: unknown[]
}

export type RecordedRequest = StandInRequest

function refuse(res: ServerResponse, status: number, code: string, message: string) {
  send(res, status, { code, message, status })
}

export async function startDifyStandIn(options: {
  apiKey: string
  /** The answer's deltas for a request (default: an echo of the query, per word). */
  answer?: (request: DifyStandInRequest) => string[]
  /** Agent apps stream agent_message events instead of message. */
  agent?: boolean
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
  failWith?: number
  /** An error event after the first delta. */
  errorAfterFirstDelta?: boolean
  appName?: string
}) {
  const conversations = new Set<string>()
  const { baseUrl, requests, close } = await startStandIn(
    ({ req, res, url, text, body, isJson }) => {
      if (text && !isJson) return refuse(res, 400, 'invalid_param', 'Invalid JSON')
      if (req.headers.authorization !== `Bearer ${options.apiKey}`)
        return refuse(res, 401, 'unauthorized', 'Access token is invalid')

      if (req.method === 'GET' && url.pathname === '/v1/info') {
        return send(res, 200, { name: options.appName ?? 'Support bot', description: '', tags: [] })
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/chat-messages')
        return refuse(res, 404, 'not_found', 'The requested URL was not found on the server.')

      if (typeof body?.query !== 'string' || !body.query)
        return refuse(res, 400, 'invalid_param', 'query is required')
      if (typeof body.user !== 'string' || !body.user)
        return refuse(res, 400, 'invalid_param', 'user is required')
      if (!body.inputs || typeof body.inputs !== 'object' || Array.isArray(body.inputs))
        return refuse(res, 400, 'invalid_param', 'inputs must be an object')
      if (body.response_mode !== 'streaming' && body.response_mode !== 'blocking')
        return refuse(res, 400, 'invalid_param', 'response_mode must be streaming or blocking')
      if (body.response_mode === 'blocking' && options.agent)
        return refuse(res, 400, 'app_unavailable', 'Agent Chat App does not support blocking mode')
      if (body.conversation_id && !conversations.has(body.conversation_id))
        return refuse(res, 404, 'not_found', 'Conversation Not Exists.')
      if (options.failWith)
        return refuse(res, options.failWith, 'internal_server_error', 'Internal Server Error')

      const conversationId = body.conversation_id || `conv-${conversations.size + 1}`
      conversations.add(conversationId)
      const deltas = options.answer
        ? options.answer(body)
        : (`You asked: ${body.query}`.match(/\S+\s*|\s+/g) ?? [])
      const usage = options.usage ?? { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 }
      const common = {
        task_id: 'task-1',
        id: 'msg-1',
        message_id: 'msg-1',
        conversation_id: conversationId,
        created_at: 1_700_000_000,
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('event: ping\n\n')
      for (const [index, delta] of deltas.entries()) {
        res.write(
          `data: ${JSON.stringify({ event: options.agent ? 'agent_message' : 'message', ...common, answer: delta })}\n\n`
        )
        if (index === 0 && options.agent) {
          res.write(
            `data: ${JSON.stringify({ event: 'agent_thought', ...common, thought: 'Thinking', tool: '' })}\n\n`
          )
        }
        if (index === 0 && options.errorAfterFirstDelta) {
          res.write(
            `data: ${JSON.stringify({ event: 'error', ...common, status: 400, code: 'completion_request_error', message: 'The model is overloaded' })}\n\n`
          )
          return res.end()
        }
      }
      res.write(
        `data: ${JSON.stringify({ event: 'message_end', ...common, metadata: { usage: { ...usage, currency: 'USD' } } })}\n\n`
      )
      res.end()
    }
  )
  return {
    origin: baseUrl,
    requests,
    chatBodies: () =>
      requests
        .filter((r) => r.path === '/v1/chat-messages')
        .map((r) => r.body as DifyStandInRequest),
    close,
  }
}
