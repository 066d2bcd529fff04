import type { HttpClient } from '#sdk/plugin'
import {
  type ChatCompletion,
  type ChatMessage,
  type ChatRequest,
  ensureOk,
  ProviderError,
  type ToolCall,
} from '#sdk/ai'

/**
 * The Gemini API's generateContent, spoken in the OpenAI chat-completions shape the agent
 * loop uses: system messages become the system instruction, tool calls become
 * functionCall parts, tool answers functionResponse parts (Gemini pairs them by name).
 */

export interface GeminiEndpoint {
  baseUrl: string
  apiKey: string
}

interface GeminiPart {
  text?: string
  /** Thinking models' reasoning summary: not part of the answer. */
  thought?: boolean
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> }
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> }
}

interface GeminiContent {
  role: 'user' | 'model'
  parts: GeminiPart[]
}

export interface GeminiRequest {
  contents: GeminiContent[]
  systemInstruction?: { parts: GeminiPart[] }
  tools?: { functionDeclarations: Record<string, unknown>[] }[]
  generationConfig?: { temperature?: number; topP?: number; maxOutputTokens?: number }
}

interface GeminiResponse {
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[]
  promptFeedback?: { blockReason?: string }
  usageMetadata?: {
    promptTokenCount?: number
    candidatesTokenCount?: number
    totalTokenCount?: number
  }
  modelVersion?: string
}

export function geminiUrl(endpoint: GeminiEndpoint, path: string): URL {
  return new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/v1beta/${path}`)
}

export function geminiHeaders(endpoint: GeminiEndpoint): Record<string, string> {
  return { 'x-goog-api-key': endpoint.apiKey, 'content-type': 'application/json' }
}

const textOf = (content: ChatMessage['content']) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : ''

function parseArgs(raw: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(raw || '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {}
  } catch {
    return {}
  }
}

/** The keys of Gemini's Schema object (an OpenAPI subset); it refuses any other. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
])

/**
 * A JSON schema as Gemini takes it: keys outside its subset (`$schema`,
 * `additionalProperties`... which MCP servers send) are dropped, at every depth.
 */
export function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema)
  if (!schema || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYS.has(key)) continue
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, geminiSchema(property)])
      )
    } else if (key === 'items' || key === 'anyOf') {
      out[key] = geminiSchema(value)
    } else {
      out[key] = value
    }
  }
  return out
}

/** The request body of generateContent for a chat request. */
export function toGeminiRequest(request: ChatRequest): GeminiRequest {
  const system: string[] = []
  const contents: GeminiContent[] = []
  // functionResponse parts name the function they answer; tool messages only carry its id.
  const callNames = new Map<string, string>()
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    const last = contents.at(-1)
    // Gemini wants turns to alternate: consecutive parts of one side share a turn.
    if (last && last.role === role) last.parts.push(...parts)
    else contents.push({ role, parts })
  }
  for (const message of request.messages) {
    if (message.role === 'system') {
      const text = textOf(message.content)
      if (text.trim()) system.push(text)
    } else if (message.role === 'user') {
      push('user', [{ text: textOf(message.content) }])
    } else if (message.role === 'assistant') {
      const parts: GeminiPart[] = []
      const text = textOf(message.content)
      if (text) parts.push({ text })
      for (const call of message.tool_calls ?? []) {
        callNames.set(call.id, call.function.name)
        parts.push({
          functionCall: { name: call.function.name, args: parseArgs(call.function.arguments) },
        })
      }
      if (parts.length > 0) push('model', parts)
    } else if (message.role === 'tool') {
      const name = callNames.get(message.tool_call_id ?? '') ?? message.name ?? 'tool'
      push('user', [{ functionResponse: { name, response: { content: textOf(message.content) } } }])
    }
  }
  const body: GeminiRequest = { contents }
  if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join('\n\n') }] }
  if (request.tools?.length) {
    body.tools = [
      {
        functionDeclarations: request.tools.map(({ function: fn }) => ({
          ...fn,
          ...(fn.parameters ? { parameters: geminiSchema(fn.parameters) } : {}),
        })),
      },
    ]
  }
  const config: NonNullable<GeminiRequest['generationConfig']> = {}
  if (typeof request.temperature === 'number') config.temperature = request.temperature
  if (typeof request.top_p === 'number') config.topP = request.top_p
  if (typeof request.max_tokens === 'number') config.maxOutputTokens = request.max_tokens
  if (Object.keys(config).length > 0) body.generationConfig = config
  return body
}

/** The chat completion an answer of generateContent amounts to. */
export function fromGeminiResponse(body: GeminiResponse, model: string): ChatCompletion {
  const candidate = body.candidates?.[0]
  const parts = candidate?.content?.parts
  if (!candidate || !Array.isArray(parts)) {
    const reason = body.promptFeedback?.blockReason ?? candidate?.finishReason ?? 'no candidate'
    throw new ProviderError(502, body, `Gemini gave no answer (${reason})`)
  }
  const toolCalls: ToolCall[] = []
  let text = ''
  for (const part of parts) {
    if (typeof part.text === 'string' && !part.thought) text += part.text
    if (part.functionCall?.name) {
      toolCalls.push({
        id: part.functionCall.id ?? `call_${toolCalls.length + 1}`,
        type: 'function',
        function: {
          name: part.functionCall.name,
          arguments: JSON.stringify(part.functionCall.args ?? {}),
        },
      })
    }
  }
  const message: ChatMessage = { role: 'assistant', content: text }
  if (toolCalls.length > 0) message.tool_calls = toolCalls
  const usage = body.usageMetadata ?? {}
  return {
    model: body.modelVersion ?? model,
    choices: [
      { message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : candidate.finishReason },
    ],
    usage: {
      prompt_tokens: usage.promptTokenCount ?? 0,
      completion_tokens: usage.candidatesTokenCount ?? 0,
      total_tokens:
        usage.totalTokenCount ?? (usage.promptTokenCount ?? 0) + (usage.candidatesTokenCount ?? 0),
    },
  }
}

/** Model ids may be given with or without Gemini's `models/` prefix. */
export const modelPath = (model: string) =>
  `models/${encodeURIComponent(model.replace(/^models\//, ''))}`

/** POST {baseUrl}/v1beta/models/{model}:generateContent, as a chat completion. */
export function geminiTransport(endpoint: GeminiEndpoint) {
  return async (http: HttpClient, request: ChatRequest, signal?: AbortSignal) => {
    const response = await http.request(
      geminiUrl(endpoint, `${modelPath(request.model)}:generateContent`),
      {
        method: 'POST',
        headers: geminiHeaders(endpoint),
        body: JSON.stringify(toGeminiRequest(request)),
        timeoutMs: 120_000,
        signal,
      }
    )
    await ensureOk(response)
    return fromGeminiResponse((await response.json()) as GeminiResponse, request.model)
  }
}

/** GET {baseUrl}/v1beta/models: the models that generate content (ids without `models/`). */
export async function listGeminiModels(
  http: HttpClient,
  endpoint: GeminiEndpoint,
  signal?: AbortSignal
) {
  const ids: string[] = []
  let pageToken: string | undefined
  // A key sees a few dozen models; the pages are followed a bounded number of times.
  for (let page = 0; page < 10; page++) {
    const url = geminiUrl(endpoint, 'models')
    url.searchParams.set('pageSize', '1000')
    if (pageToken) url.searchParams.set('pageToken', pageToken)
    const response = await http.request(url, {
      headers: { 'x-goog-api-key': endpoint.apiKey },
      signal,
    })
    await ensureOk(response)
    const body = (await response.json()) as {
      models?: { name?: string; supportedGenerationMethods?: string[] }[]
      nextPageToken?: string
    }
    for (const model of body.models ?? []) {
      if (!model.name || !model.supportedGenerationMethods?.includes('generateContent')) continue
      ids.push(model.name.replace(/^models\//, ''))
    }
    pageToken = body.nextPageToken
    if (!pageToken) break
  }
  return ids
}
