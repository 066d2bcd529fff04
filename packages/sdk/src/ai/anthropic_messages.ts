import type { HttpClient, RunnerAi } from '../runner_types.js'
import { AI_ERRORS, ProviderError, ensureOk } from './errors.js'
import { toolSchemas, type StoredFunctionTool, type ToolSchema } from './function_tools.js'
import { withImageParts, type ChatMessage } from './messages.js'
import { readSseJson } from './sse.js'

/**
 * The Anthropic Messages API (POST /v1/messages): plain and streamed answers, the
 * tool_use / tool_result round trips and image blocks. Server only: plugin runners use it
 * with the guarded HTTP client of their context.
 */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'
/** The API version every request names (the header is mandatory). */
export const ANTHROPIC_VERSION = '2023-06-01'

export interface AnthropicEndpoint {
  baseUrl?: string
  apiKey: string
}

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string }

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: AnthropicImageSource }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string }

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: string | AnthropicBlock[]
}

export interface AnthropicTool {
  name: string
  description?: string
  input_schema: Record<string, unknown>
}

export interface AnthropicRequest {
  model: string
  max_tokens: number
  messages: AnthropicMessage[]
  system?: string
  temperature?: number
  tools?: AnthropicTool[]
}

export interface AnthropicUsage {
  input_tokens?: number
  output_tokens?: number
}

export interface AnthropicResponse {
  id?: string
  type?: 'message'
  role?: 'assistant'
  model?: string
  content: AnthropicBlock[]
  stop_reason?: string | null
  usage?: AnthropicUsage
}

/**
 * The API root. People paste either the host or the host with /v1: both work, since the
 * paths below add /v1 themselves.
 */
export function anthropicUrl(endpoint: AnthropicEndpoint, path: string): URL {
  const base = (endpoint.baseUrl || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '')
  return new URL(`${base.replace(/\/v1$/, '')}/v1/${path.replace(/^\/+/, '')}`)
}

export function anthropicHeaders(endpoint: AnthropicEndpoint, json = true) {
  const headers: Record<string, string> = {
    'x-api-key': endpoint.apiKey,
    'anthropic-version': ANTHROPIC_VERSION,
    'accept': 'application/json',
  }
  if (json) headers['content-type'] = 'application/json'
  return headers
}

/**
 * Tool schemas in Anthropic's shape (the JSON schema goes in input_schema): the block's
 * function tools and its "search_knowledge" tool alike (chatToolsOf). Undefined for none.
 */
export function anthropicToolsOf(schemas: readonly ToolSchema[]): AnthropicTool[] | undefined {
  if (schemas.length === 0) return undefined
  return schemas.map((schema) => ({
    name: schema.name,
    ...(schema.description ? { description: schema.description } : {}),
    input_schema: schema.parameters,
  }))
}

/** The function tools in Anthropic's shape. */
export function anthropicTools(
  tools: readonly StoredFunctionTool[] | undefined
): AnthropicTool[] | undefined {
  return anthropicToolsOf(toolSchemas(tools))
}

/**
 * Every claude-3 model sees images, and so do the later generations,
 * whose ids put the family first (claude-sonnet-4-..., claude-opus-4-1-...).
 */
export function anthropicSeesImages(model: string | undefined): boolean {
  return Boolean(model && /^claude-(3|[a-z]+-[4-9])/.test(model))
}

/**
 * Model ids offered in the editor: older 2.x and instant models are hidden, every later Claude model is kept.
 */
export function isListedAnthropicModel(id: string): boolean {
  return /^claude-/.test(id) && !/^claude-2/.test(id) && !/instant/.test(id)
}

/** Image types the Messages API accepts in base64 image blocks. */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']
/** The API refuses base64 images above 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

/**
 * Image URLs in user messages become base64 image blocks. We send the bytes rather than a
 * URL source so that images the provider cannot reach itself (a self-hosted instance's
 * storage behind a firewall) still work, and every API version accepts them. Each URL is
 * fetched once (its content type decides); an image the API would refuse
 * (unknown type, over 5 MB, unreachable) stays a link in the text.
 */
export async function withAnthropicImages(
  messages: ChatMessage[],
  http: HttpClient,
  signal?: AbortSignal
): Promise<{ messages: ChatMessage[]; images: Map<string, AnthropicImageSource> }> {
  const images = new Map<string, AnthropicImageSource>()
  const withParts = await withImageParts(messages, async (url) => {
    const response = await http.request(url, { signal, timeoutMs: 15_000 })
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
    if (!response.ok || !IMAGE_TYPES.includes(type)) {
      await response.body?.cancel().catch(() => {})
      return undefined
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > MAX_IMAGE_BYTES) {
      await response.body?.cancel().catch(() => {})
      return undefined
    }
    const bytes = Buffer.from(await response.arrayBuffer())
    if (bytes.byteLength > MAX_IMAGE_BYTES) return undefined
    images.set(url, { type: 'base64', media_type: type, data: bytes.toString('base64') })
    return type
  })
  return { messages: withParts, images }
}

/**
 * The chat messages (with Dialogue entries already expanded) as an Anthropic conversation:
 * system messages join the block's system message in the top-level `system` field (the API
 * has no system role), consecutive messages of one role are merged (the API wants turns to
 * alternate), opening assistant turns move to the system prompt (the API wants the user
 * first), and image parts become image blocks.
 */
export function toAnthropicConversation(
  messages: readonly ChatMessage[],
  options: { systemMessage?: string; images?: Map<string, AnthropicImageSource> } = {}
): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = []
  if (options.systemMessage?.trim()) system.push(options.systemMessage.trim())
  const out: AnthropicMessage[] = []
  for (const message of messages) {
    if (message.role === 'system') {
      if (typeof message.content === 'string' && message.content.trim())
        system.push(message.content.trim())
      continue
    }
    if (message.role !== 'user' && message.role !== 'assistant') continue
    const blocks: AnthropicBlock[] = []
    if (typeof message.content === 'string') {
      if (message.content.trim()) blocks.push({ type: 'text', text: message.content })
    } else {
      for (const part of message.content ?? []) {
        if (part.type === 'text') blocks.push({ type: 'text', text: part.text })
        else {
          const source = options.images?.get(part.image_url.url)
          if (source) blocks.push({ type: 'image', source })
        }
      }
    }
    if (blocks.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === message.role) {
      ;(last.content as AnthropicBlock[]).push(...blocks)
    } else {
      out.push({ role: message.role, content: blocks })
    }
  }
  // The API refuses a conversation that does not start with the user ("first message must
  // use the user role"), yet a Dialogue often starts with the bot's greeting. Those opening
  // words stay known to the model through the system prompt rather than being dropped.
  while (out[0]?.role === 'assistant') {
    const opening = (out.shift()!.content as AnthropicBlock[])
      .map((block) => (block.type === 'text' ? block.text : ''))
      .filter(Boolean)
      .join('\n')
    if (opening) system.push(`The conversation started with your message:\n${opening}`)
  }
  // Plain text turns are sent as strings: the shortest form, and the one people read in logs.
  for (const message of out) {
    const blocks = message.content as AnthropicBlock[]
    if (blocks.length === 1 && blocks[0].type === 'text') message.content = blocks[0].text
  }
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: out }
}

export function textOf(response: Pick<AnthropicResponse, 'content'>): string {
  return response.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('')
}

export async function createMessage(
  http: HttpClient,
  endpoint: AnthropicEndpoint,
  request: AnthropicRequest,
  signal?: AbortSignal
): Promise<AnthropicResponse> {
  const response = await http.request(anthropicUrl(endpoint, 'messages'), {
    method: 'POST',
    headers: anthropicHeaders(endpoint),
    body: JSON.stringify(request),
    timeoutMs: 120_000,
    signal,
  })
  await ensureOk(response)
  const body = (await response.json()) as AnthropicResponse
  if (!Array.isArray(body?.content)) {
    throw new ProviderError(response.status, body, 'The provider answered without content')
  }
  return body
}

/**
 * Streams the text of a message (server-sent events: text_delta in content_block_delta).
 * The token counts come from message_start (input) and message_delta (output, cumulative)
 * and are handed to `onUsage` once the stream ends.
 */
export async function* streamMessage(
  http: HttpClient,
  endpoint: AnthropicEndpoint,
  request: AnthropicRequest,
  options: {
    signal?: AbortSignal
    onUsage?: (usage: { model?: string; inputTokens: number; outputTokens: number }) => void
  } = {}
): AsyncGenerator<string> {
  const response = await http.request(anthropicUrl(endpoint, 'messages'), {
    method: 'POST',
    headers: { ...anthropicHeaders(endpoint), accept: 'text/event-stream' },
    body: JSON.stringify({ ...request, stream: true }),
    timeoutMs: 120_000,
    signal: options.signal,
  })
  await ensureOk(response)
  let started = false
  let model: string | undefined
  let inputTokens = 0
  let outputTokens = 0
  try {
    for await (const { event, json } of readSseJson<any>(response)) {
      const type = json?.type ?? event
      if (type === 'error') {
        // Errors after the 200 arrive as an event: overloaded_error, api_error, ...
        const status = json?.error?.type === 'overloaded_error' ? 529 : 500
        throw new ProviderError(status, json, json?.error?.message ?? AI_ERRORS.stream)
      }
      if (type === 'message_start') {
        started = true
        model = json.message?.model ?? model
        inputTokens = json.message?.usage?.input_tokens ?? inputTokens
        outputTokens = json.message?.usage?.output_tokens ?? outputTokens
      } else if (type === 'message_delta') {
        outputTokens = json.usage?.output_tokens ?? outputTokens
        if (typeof json.usage?.input_tokens === 'number') inputTokens = json.usage.input_tokens
      } else if (type === 'content_block_delta' && json.delta?.type === 'text_delta') {
        if (json.delta.text) yield json.delta.text as string
      }
    }
  } finally {
    // Also when the stream breaks off or the reader stops early: what message_start and
    // the deltas announced was billed by the provider.
    if (started) options.onUsage?.({ model: model ?? request.model, inputTokens, outputTokens })
  }
}

/** GET /v1/models: every model id the key may use (all pages). */
export async function listAnthropicModels(
  http: HttpClient,
  endpoint: AnthropicEndpoint,
  signal?: AbortSignal
): Promise<string[]> {
  const ids: string[] = []
  let afterId: string | undefined
  // Bounded: a misbehaving server that always says has_more cannot keep us here.
  for (let page = 0; page < 20; page++) {
    const url = anthropicUrl(endpoint, 'models')
    url.searchParams.set('limit', '1000')
    if (afterId) url.searchParams.set('after_id', afterId)
    const response = await http.request(url, { headers: anthropicHeaders(endpoint, false), signal })
    await ensureOk(response)
    const body = (await response.json()) as {
      data?: { id?: string }[]
      has_more?: boolean
      last_id?: string
    }
    for (const model of body?.data ?? []) if (typeof model?.id === 'string') ids.push(model.id)
    if (!body?.has_more || !body.last_id) break
    afterId = body.last_id
  }
  return ids
}

export const MAX_TOOL_ROUNDS = 10

export interface AnthropicToolLoopResult {
  response: AnthropicResponse
  text: string
  usage: { inputTokens: number; outputTokens: number }
  rounds: number
  /** True when the model still asked for tools after the last allowed round. */
  capped: boolean
}

/**
 * A message with tools: while the model stops for tool_use, each call's
 * result goes back as a tool_result block of the next user turn and the model is called
 * again, at most MAX_TOOL_ROUNDS times. Every provider call is charged to the owner's AI
 * credits as it happens.
 */
export async function messageWithTools(input: {
  http: HttpClient
  endpoint: AnthropicEndpoint
  request: AnthropicRequest
  ai: RunnerAi
  execute: (call: { id: string; name: string; input: Record<string, unknown> }) => Promise<string>
  signal?: AbortSignal
  maxRounds?: number
}): Promise<AnthropicToolLoopResult> {
  const maxRounds = input.maxRounds ?? MAX_TOOL_ROUNDS
  const messages = [...input.request.messages]
  const usage = { inputTokens: 0, outputTokens: 0 }
  for (let round = 1; ; round++) {
    await input.ai.ensureCredits()
    const response = await createMessage(
      input.http,
      input.endpoint,
      { ...input.request, messages },
      input.signal
    )
    const inputTokens = response.usage?.input_tokens ?? 0
    const outputTokens = response.usage?.output_tokens ?? 0
    usage.inputTokens += inputTokens
    usage.outputTokens += outputTokens
    await input.ai.recordUsage({
      model: response.model ?? input.request.model,
      inputTokens,
      outputTokens,
    })
    const calls = response.content.filter(
      (block): block is Extract<AnthropicBlock, { type: 'tool_use' }> => block.type === 'tool_use'
    )
    const done = { response, text: textOf(response), usage, rounds: round }
    if (calls.length === 0) return { ...done, capped: false }
    if (round >= maxRounds) return { ...done, capped: true }
    messages.push({ role: 'assistant', content: response.content })
    const results: AnthropicBlock[] = []
    for (const call of calls) {
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: await input.execute({ id: call.id, name: call.name, input: call.input ?? {} }),
      })
    }
    messages.push({ role: 'user', content: results })
  }
}
