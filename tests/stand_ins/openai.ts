import type { ServerResponse } from 'node:http'
import { sendJson as send, startStandIn, type StandInExchange } from './stand_in_server.js'

/**
 * A local stand-in for the OpenAI REST API and the servers that speak it (Groq, OpenRouter,
 * Together AI, local model servers). It checks what our runners send like the real service
 * does (the bearer key, the body fields each endpoint requires, a multipart upload for
 * transcriptions) and answers in its shapes:
 *
 * - POST /v1/chat/completions: plain or SSE (`stream: true`, with the usage chunk when
 *   `stream_options.include_usage`); with tools it asks for a tool call (once, or on every
 *   round with `toolCalls: 'always'`) and answers with the tool's result afterwards.
 * - POST /v1/audio/speech (mp3 bytes), POST /v1/audio/transcriptions (multipart),
 *   POST /v1/images/generations (b64_json or url), GET /v1/models ({data} or a bare array).
 * - GET /files/* (no key): an mp3, a png and an html page, for transcription and vision.
 *
 * `script(body)` scripts the assistant's messages (tool calls of a copilot, say).
 * `failWith(status, body)` makes every /v1 call answer that error until `failWith(null)`.
 */

export const STAND_IN_USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }
/** The bytes served as /files/speech.mp3 and answered by /audio/speech. */
export const MP3_BYTES = Buffer.from('ID3\u0004stand-in mp3 frames', 'latin1')
/** A 1x1 transparent png. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64'
)
export const VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer']
export const IMAGE_SIZES = ['256x256', '512x512', '1024x1024']

export interface StandInModel {
  id: string
  name?: string
  created?: number
}

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  body: string
  raw: Buffer
  /** The parsed JSON body, when it was JSON. */
  json?: any
  /** The parsed multipart fields, for transcriptions. */
  form?: Record<string, { name?: string; type?: string; size?: number; text?: string }>
}

export interface OpenAiStandInOptions {
  apiKey: string
  models?: (string | StandInModel)[]
  /** Together AI answers GET /models with a bare array. */
  modelsShape?: 'data' | 'array'
  /** 'once' (default): one tool round then an answer; 'always': a tool call every round. */
  toolCalls?: 'once' | 'always'
  /** The arguments of the tool call the stand-in asks for. */
  toolArguments?: Record<string, unknown>
  /**
   * Scripted assistant messages (tool calls included) for agents that drive tools of their
   * own, like the copilot: called for each chat completion; undefined falls back to the
   * default behaviour.
   */
  script?: (body: any) => Record<string, unknown> | undefined
  /** The chat answer (default: 'Echo: ' and the last user text). */
  reply?: (body: any) => string
  /** Transcription text. */
  transcript?: string
  /** Images answered as a URL to /files/cat.png instead of base64. */
  imagesAs?: 'b64_json' | 'url'
}

function lastUserText(messages: any[]): string {
  const last = [...messages].reverse().find((message) => message?.role === 'user')
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  if (Array.isArray(last.content)) {
    return last.content
      .filter((part: any) => part?.type === 'text')
      .map((part: any) => part.text)
      .join('')
  }
  return ''
}

export async function startOpenAiStandIn(options: OpenAiStandInOptions) {
  let failure: { status: number; body: unknown } | null = null
  let origin = ''

  const invalid = (res: ServerResponse, message: string, status = 400) =>
    send(res, status, { error: { message, type: 'invalid_request_error', code: null } })

  function chatAnswer(body: any): any {
    const scripted = options.script?.(body)
    if (scripted) return { role: 'assistant', content: null, ...scripted }
    const messages: any[] = body.messages
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0
    const toolResults = messages.filter((message) => message.role === 'tool')
    if (hasTools && (options.toolCalls === 'always' || toolResults.length === 0)) {
      const tool = body.tools[0].function
      return {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${toolResults.length + 1}`,
            type: 'function',
            function: { name: tool.name, arguments: JSON.stringify(options.toolArguments ?? {}) },
          },
        ],
      }
    }
    if (toolResults.length > 0) {
      return {
        role: 'assistant',
        content: `Tool said: ${toolResults[toolResults.length - 1].content}`,
      }
    }
    const text = options.reply ? options.reply(body) : `Echo: ${lastUserText(messages)}`
    return { role: 'assistant', content: text }
  }

  function chat(res: ServerResponse, body: any) {
    if (typeof body?.model !== 'string' || !body.model)
      return invalid(res, 'you must provide a model parameter')
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return invalid(res, "'messages' must contain at least one message")
    if (body.model.startsWith('missing-'))
      return send(res, 404, {
        error: { message: `The model \`${body.model}\` does not exist`, code: 'model_not_found' },
      })
    const message = chatAnswer(body)
    if (!body.stream) {
      return send(res, 200, {
        id: 'chatcmpl-stand-in',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
        usage: STAND_IN_USAGE,
      })
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const chunk = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`)
    const base = { id: 'chatcmpl-stand-in', object: 'chat.completion.chunk', model: body.model }
    chunk({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })
    const words = String(message.content ?? '').split(/(?<= )/)
    for (const word of words) chunk({ ...base, choices: [{ index: 0, delta: { content: word } }] })
    chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
    if (body.stream_options?.include_usage) chunk({ ...base, choices: [], usage: STAND_IN_USAGE })
    res.end('data: [DONE]\n\n')
  }

  const standIn = await startStandIn(
    async ({ req, res, url, raw, body: json, isJson, recorded }) => {
      // Files a bot points at (no key): transcription input and vision candidates.
      if (url.pathname.startsWith('/files/')) {
        const files: Record<string, [string, Buffer]> = {
          '/files/speech.mp3': ['audio/mpeg', MP3_BYTES],
          '/files/cat.png': ['image/png', PNG_BYTES],
          '/files/page.html': ['text/html; charset=utf-8', Buffer.from('<p>not an image</p>')],
        }
        const file = files[url.pathname]
        if (!file) return send(res, 404, { error: 'not found' })
        res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length })
        return res.end(req.method === 'HEAD' ? undefined : file[1])
      }

      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(res, 401, {
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        })
      }
      if (failure) return send(res, failure.status, failure.body)

      const contentType = String(req.headers['content-type'] ?? '')
      if (req.method === 'POST' && contentType.startsWith('application/json')) {
        if (!isJson) return invalid(res, 'We could not parse the JSON body of your request.')
        recorded.json = json
      }

      if (req.method === 'GET' && url.pathname === '/v1/models') {
        const models = (options.models ?? ['gpt-4o-mini', 'gpt-4o', 'tts-1']).map((model) =>
          typeof model === 'string' ? { id: model } : model
        )
        const data = models.map((model) => ({ object: 'model', owned_by: 'stand-in', ...model }))
        return send(res, 200, options.modelsShape === 'array' ? data : { object: 'list', data })
      }
      if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
        if (!recorded.json) return invalid(res, 'The body must be JSON')
        return chat(res, recorded.json)
      }
      if (req.method === 'POST' && url.pathname === '/v1/audio/speech') {
        const body = recorded.json
        if (!body) return invalid(res, 'The body must be JSON')
        if (!body.model) return invalid(res, 'you must provide a model parameter')
        if (typeof body.input !== 'string' || !body.input) return invalid(res, 'input is required')
        if (!VOICES.includes(body.voice)) return invalid(res, `Invalid voice ${body.voice}`)
        res.writeHead(200, { 'content-type': 'audio/mpeg' })
        return res.end(MP3_BYTES)
      }
      if (req.method === 'POST' && url.pathname === '/v1/audio/transcriptions') {
        if (!contentType.startsWith('multipart/form-data'))
          return invalid(res, 'Expected multipart/form-data')
        const form = await new Request('http://stand-in/', {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: raw,
        }).formData()
        recorded.form = {}
        for (const [name, value] of form.entries()) {
          recorded.form[name] =
            typeof value === 'string'
              ? { text: value }
              : { name: value.name, type: value.type, size: value.size }
        }
        const file = form.get('file')
        if (!file || typeof file === 'string') return invalid(res, 'file is required')
        if (form.get('model') !== 'whisper-1') return invalid(res, 'model must be whisper-1')
        return send(res, 200, { text: options.transcript ?? 'Hello from the stand-in.' })
      }
      if (req.method === 'POST' && url.pathname === '/v1/images/generations') {
        const body = recorded.json
        if (!body) return invalid(res, 'The body must be JSON')
        if (typeof body.prompt !== 'string' || !body.prompt)
          return invalid(res, 'prompt is required')
        if (!IMAGE_SIZES.includes(body.size)) return invalid(res, `Invalid size ${body.size}`)
        return send(res, 200, {
          created: 1,
          data: [
            options.imagesAs === 'url'
              ? { url: `${origin}/files/cat.png` }
              : { b64_json: PNG_BYTES.toString('base64') },
          ],
        })
      }
      send(res, 404, {
        error: { message: `Unknown path ${url.pathname}`, type: 'invalid_request_error' },
      })
    },
    {
      record: ({ req, url, raw, text }: StandInExchange): RecordedRequest => ({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text,
        raw,
      }),
    }
  )
  const { requests } = standIn
  origin = standIn.baseUrl
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    /** The recorded calls to one path (e.g. '/v1/chat/completions'). */
    callsTo: (path: string) => requests.filter((request) => request.path === path),
    /** Every /v1 call answers this error until failWith(null). */
    failWith(status: number | null, body: unknown = { error: { message: 'Stand-in failure' } }) {
      failure = status === null ? null : { status, body }
    },
    close: standIn.close,
  }
}

export type OpenAiStandIn = Awaited<ReturnType<typeof startOpenAiStandIn>>
