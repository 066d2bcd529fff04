import type { ServerResponse } from 'node:http'
import { sendJson as send, startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for the Mistral AI API (api.mistral.ai/v1). Like the real service it
 * checks the bearer key, refuses request fields it does not know (422 extra_forbidden),
 * unknown models, roles out of place and tool messages answering no tool call; what the
 * model says comes from `respond`, so each test scripts it.
 */

export interface MistralStandInRequest {
  model: string
  messages: { role: string; content: any; tool_calls?: any[]; tool_call_id?: string }[]
  tools?: any[]
  response_format?: { type: string }
  stream?: boolean
  [key: string]: unknown
}

export interface MistralStandInReply {
  content?: string
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[]
  usage?: { prompt_tokens: number; completion_tokens: number }
}

export type RecordedRequest = StandInRequest

/** The chat completion fields the API accepts; any other is refused. */
const KNOWN_FIELDS = new Set([
  'model',
  'messages',
  'temperature',
  'top_p',
  'max_tokens',
  'stream',
  'stop',
  'random_seed',
  'response_format',
  'tools',
  'tool_choice',
  'presence_penalty',
  'frequency_penalty',
  'n',
  'prediction',
  'parallel_tool_calls',
  'safe_prompt',
])

function invalid(res: ServerResponse, message: string) {
  send(res, 400, { object: 'error', message, type: 'invalid_request_message_order', code: '3230' })
}

export async function startMistralStandIn(options: {
  apiKey: string
  models?: string[]
  respond?: (request: MistralStandInRequest) => MistralStandInReply | Promise<MistralStandInReply>
  failWith?: number
  /** Streams: how the content is cut into chunks (default: per word). */
  chunks?: (text: string) => string[]
}) {
  const models = options.models ?? [
    'mistral-small-latest',
    'mistral-large-latest',
    'open-mistral-nemo',
  ]
  const standIn = await startStandIn(async ({ req, res, url, text, body, isJson, requests }) => {
    if (text && !isJson) return send(res, 400, { object: 'error', message: 'Invalid JSON body' })
    if (req.headers.authorization !== `Bearer ${options.apiKey}`)
      return send(res, 401, { message: 'Unauthorized', request_id: 'stand-in' })

    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return send(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', owned_by: 'mistralai' })),
      })
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions')
      return send(res, 404, { detail: 'Not Found' })

    const extra = Object.keys(body ?? {}).filter((key) => !KNOWN_FIELDS.has(key))
    if (extra.length > 0) {
      return send(res, 422, {
        object: 'error',
        message: {
          detail: extra.map((key) => ({
            type: 'extra_forbidden',
            loc: ['body', key],
            msg: 'Extra inputs are not permitted',
          })),
        },
        type: 'invalid_request_error',
      })
    }
    if (!models.includes(body.model))
      return send(res, 400, { object: 'error', message: 'Invalid model', type: 'invalid_model' })
    const messages: MistralStandInRequest['messages'] = body.messages ?? []
    if (messages.length === 0) return invalid(res, 'Messages must not be empty')
    for (const [index, message] of messages.entries()) {
      if (!['system', 'user', 'assistant', 'tool'].includes(message.role))
        return invalid(res, `Unexpected role '${message.role}'`)
      if (message.role === 'tool') {
        const asked = messages
          .slice(0, index)
          .filter((m) => m.role === 'assistant')
          .flatMap((m) => m.tool_calls ?? [])
          .map((call) => call.id)
        if (!asked.includes(message.tool_call_id!))
          return invalid(res, 'Tool message does not answer a tool call')
      }
    }
    if (!['user', 'tool'].includes(messages.at(-1)!.role))
      return invalid(res, 'Expected last role User or Tool but got ' + messages.at(-1)!.role)
    if (options.failWith)
      return send(res, options.failWith, { object: 'error', message: 'Service unavailable' })

    const reply = options.respond
      ? await options.respond(body)
      : { content: `Bonjour! ${String(messages.at(-1)!.content)}` }
    const usage = reply.usage ?? { prompt_tokens: 40, completion_tokens: 10 }
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
    const message = {
      role: 'assistant',
      content: reply.content ?? '',
      ...(reply.tool_calls ? { tool_calls: reply.tool_calls } : {}),
    }
    const finish = reply.tool_calls ? 'tool_calls' : 'stop'
    if (!body.stream) {
      return send(res, 200, {
        id: `cmpl-${requests.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: fullUsage,
      })
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const pieces = options.chunks
      ? options.chunks(message.content)
      : (message.content.match(/\S+\s*|\s+/g) ?? [])
    const chunk = (delta: unknown, extraFields: object = {}) =>
      res.write(
        `data: ${JSON.stringify({
          id: 'cmpl-stream',
          object: 'chat.completion.chunk',
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, delta, finish_reason: null }],
          ...extraFields,
        })}\n\n`
      )
    chunk({ role: 'assistant', content: '' })
    for (const piece of pieces) chunk({ content: piece })
    res.write(
      `data: ${JSON.stringify({
        id: 'cmpl-stream',
        object: 'chat.completion.chunk',
        model: body.model,
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }],
        usage: fullUsage,
      })}\n\n`
    )
    res.end('data: [DONE]\n\n')
  })
  const { requests } = standIn
  return {
    baseUrl: `${standIn.baseUrl}/v1`,
    requests,
    chatBodies: () =>
      requests
        .filter((r) => r.path === '/v1/chat/completions')
        .map((r) => r.body as MistralStandInRequest),
    close: standIn.close,
  }
}
