import type { ServerResponse } from 'node:http'
import { startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for the Anthropic Messages API. Like the real service it refuses a
 * wrong x-api-key, a missing anthropic-version, unknown models and malformed conversations
 * (a system role inside messages, a first turn that is not the user's, turns that do not
 * alternate, a tool_result answering no
 * tool_use of the previous turn, image blocks that are not base64 images); what it answers
 * comes from `respond`, so each test scripts the model.
 */

export interface StandInMessageRequest {
  model: string
  max_tokens: number
  messages: { role: string; content: string | any[] }[]
  system?: string
  temperature?: number
  tools?: { name: string; description?: string; input_schema: any }[]
  stream?: boolean
}

export interface StandInReply {
  content: any[]
  stop_reason?: string
  usage?: { input_tokens: number; output_tokens: number }
}

export type RecordedRequest = StandInRequest

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

function error(res: ServerResponse, status: number, type: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ type: 'error', error: { type, message } }))
}

/** The protocol problems the real API reports as invalid_request_error. */
function conversationProblem(body: StandInMessageRequest): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required'
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required'
  if (body.temperature !== undefined && (body.temperature < 0 || body.temperature > 1))
    return 'temperature: Input should be less than or equal to 1'
  if (body.system !== undefined && typeof body.system !== 'string')
    return 'system: Input should be a valid string'
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return 'messages: at least one message is required'
  if (body.messages[0].role !== 'user') return 'messages: first message must use the "user" role'
  let previous: { role: string; content: any } | undefined
  for (const [index, message] of body.messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${index}.role: Input should be 'user' or 'assistant'`
    if (previous?.role === message.role)
      return `messages: roles must alternate between "user" and "assistant"`
    const blocks = typeof message.content === 'string' ? null : message.content
    if (blocks !== null && !Array.isArray(blocks))
      return `messages.${index}.content: Input should be a valid list`
    for (const block of blocks ?? []) {
      if (block.type === 'image') {
        if (
          block.source?.type !== 'base64' ||
          !IMAGE_TYPES.includes(block.source.media_type) ||
          !block.source.data ||
          Buffer.from(block.source.data, 'base64').byteLength === 0
        )
          return `messages.${index}.content: invalid image source`
      }
      if (block.type === 'tool_result') {
        const asked = Array.isArray(previous?.content)
          ? previous.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)
          : []
        if (!asked.includes(block.tool_use_id))
          return `messages.${index}: tool_result block(s) provided without a corresponding tool_use`
      }
    }
    previous = message
  }
  for (const tool of body.tools ?? []) {
    if (!tool.name || tool.input_schema?.type !== 'object')
      return 'tools: input_schema must be a JSON schema of type object'
  }
  return undefined
}

export async function startAnthropicStandIn(options: {
  apiKey: string
  models?: string[]
  /** What the model answers; the default says hello with the last user text. */
  respond?: (request: StandInMessageRequest) => StandInReply | Promise<StandInReply>
  /** Answer every message with this error status (api_error) instead. */
  failWith?: number
  /** Streams: how the text is cut into text_delta events (default: per word). */
  chunks?: (text: string) => string[]
  /** Streams: an error event after the first delta. */
  streamErrorAfterFirstChunk?: boolean
  /** GET /v1/models page size, to exercise the pagination. */
  modelsPageSize?: number
}) {
  const models = options.models ?? [
    'claude-3-opus-20240229',
    'claude-3-haiku-20240307',
    'claude-sonnet-4-20250514',
    'claude-2.1',
    'claude-instant-1.2',
  ]
  const standIn = await startStandIn(async ({ req, res, url, text, body, isJson, requests }) => {
    if (text && !isJson)
      return error(res, 400, 'invalid_request_error', 'The body is not valid JSON')

    if (req.headers['x-api-key'] !== options.apiKey)
      return error(res, 401, 'authentication_error', 'invalid x-api-key')
    if (req.headers['anthropic-version'] !== '2023-06-01')
      return error(res, 400, 'invalid_request_error', 'anthropic-version: header is required')

    if (req.method === 'GET' && url.pathname === '/v1/models') {
      const size = options.modelsPageSize ?? Number(url.searchParams.get('limit') ?? 20)
      const after = url.searchParams.get('after_id')
      const start = after ? models.indexOf(after) + 1 : 0
      const page = models.slice(start, start + size)
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(
        JSON.stringify({
          data: page.map((id) => ({ type: 'model', id, display_name: id })),
          has_more: start + size < models.length,
          first_id: page[0] ?? null,
          last_id: page.at(-1) ?? null,
        })
      )
    }

    if (req.method !== 'POST' || url.pathname !== '/v1/messages')
      return error(res, 404, 'not_found_error', `Unknown path ${url.pathname}`)
    if (!String(req.headers['content-type']).startsWith('application/json'))
      return error(res, 400, 'invalid_request_error', 'content-type must be application/json')
    const problem = conversationProblem(body)
    if (problem) return error(res, 400, 'invalid_request_error', problem)
    if (!models.includes(body.model))
      return error(res, 404, 'not_found_error', `model: ${body.model}`)
    if (options.failWith) return error(res, options.failWith, 'api_error', 'Internal server error')

    const reply: StandInReply = options.respond
      ? await options.respond(body)
      : (() => {
          const last = body.messages.at(-1)
          const said =
            typeof last.content === 'string'
              ? last.content
              : last.content.find((b: any) => b.type === 'text')?.text
          return { content: [{ type: 'text', text: `Hello! You said: ${said}` }] }
        })()
    const usage = reply.usage ?? { input_tokens: 25, output_tokens: 12 }
    const message = {
      id: `msg_${requests.length}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: reply.content,
      stop_reason:
        reply.stop_reason ??
        (reply.content.some((b: any) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage,
    }
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify(message))
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (event: string, data: unknown) =>
      res.write(
        `event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`
      )
    send('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    })
    send('ping', {})
    const fullText = reply.content
      .filter((b: any) => b.type === 'text')
      .map((b: any) => b.text)
      .join('')
    const pieces = options.chunks ? options.chunks(fullText) : (fullText.match(/\S+\s*|\s+/g) ?? [])
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
    for (const [index, piece] of pieces.entries()) {
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } })
      if (index === 0 && options.streamErrorAfterFirstChunk) {
        send('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })
        return res.end()
      }
    }
    send('content_block_stop', { index: 0 })
    send('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    })
    send('message_stop', {})
    res.end()
  })
  const { baseUrl, requests, close } = standIn
  return {
    baseUrl,
    requests,
    /** The POST /v1/messages bodies, oldest first. */
    messageBodies: () =>
      requests.filter((r) => r.path === '/v1/messages').map((r) => r.body as StandInMessageRequest),
    close,
  }
}
