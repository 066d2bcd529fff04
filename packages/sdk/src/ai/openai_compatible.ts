import type { HttpClient, RunnerAi } from '../runner_types.js'
import { AI_ERRORS, ProviderError, ensureOk } from './errors.js'
import type { ChatMessage, ToolCall } from './messages.js'
import { readSseJson } from './sse.js'
import type {
  OpenAiEndpoint,
  ChatTransport,
  ChatRequest,
  ChatUsage,
  ChatCompletion,
  ListedModel,
} from './types.js'
export type { OpenAiEndpoint, ChatTransport, ChatRequest, ChatUsage, ChatCompletion }

/**
 * The OpenAI chat-completions protocol, spoken by OpenAI, Azure OpenAI (apiVersion), Groq,
 * OpenRouter, Together AI and local model servers. Server only: plugin runners use it with
 * the guarded HTTP client of their context. An endpoint's `complete` (Gemini's
 * generateContent, Bedrock's Converse) answers in its place, so the tool loop, the agent,
 * retries and credit accounting stay the same for every model.
 */

export function endpointUrl(endpoint: OpenAiEndpoint, path: string): URL {
  const url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`)
  if (endpoint.apiVersion) url.searchParams.set('api-version', endpoint.apiVersion)
  return url
}

export function endpointHeaders(endpoint: OpenAiEndpoint, json = true): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${endpoint.apiKey}`,
    ...endpoint.headers,
  }
  if (endpoint.apiVersion) headers['api-key'] = endpoint.apiKey
  if (json) headers['content-type'] = 'application/json'
  return headers
}

export async function createChatCompletion(
  http: HttpClient,
  endpoint: OpenAiEndpoint,
  request: ChatRequest,
  signal?: AbortSignal
): Promise<ChatCompletion> {
  if (endpoint.complete) return endpoint.complete(http, request, signal)
  const response = await http.request(endpointUrl(endpoint, 'chat/completions'), {
    method: 'POST',
    headers: endpointHeaders(endpoint),
    body: JSON.stringify({ ...request, stream: false }),
    timeoutMs: 120_000,
    signal,
  })
  await ensureOk(response)
  const body = (await response.json()) as ChatCompletion
  if (!Array.isArray(body?.choices) || body.choices.length === 0) {
    throw new ProviderError(response.status, body, 'The provider answered without a choice')
  }
  return body
}

/**
 * Streams the text of a chat completion. `onUsage` receives the token counts when the
 * server sends them (stream_options.include_usage), else an estimate is left to the caller.
 */
export async function* streamChatCompletion(
  http: HttpClient,
  endpoint: OpenAiEndpoint,
  request: ChatRequest,
  options: { signal?: AbortSignal; onUsage?: (usage: ChatUsage) => void } = {}
): AsyncGenerator<string> {
  const response = await http.request(endpointUrl(endpoint, 'chat/completions'), {
    method: 'POST',
    headers: { ...endpointHeaders(endpoint), accept: 'text/event-stream' },
    body: JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
    timeoutMs: 120_000,
    signal: options.signal,
  })
  await ensureOk(response)
  for await (const { json } of readSseJson<any>(response)) {
    if (json?.error) throw new ProviderError(500, json, json.error.message ?? AI_ERRORS.stream)
    const delta = json?.choices?.[0]?.delta?.content
    if (typeof delta === 'string' && delta) yield delta
    if (json?.usage) options.onUsage?.(json.usage)
  }
}

/**
 * GET {baseUrl}/models. OpenAI, OpenRouter and Groq answer {data: [...]}, Together AI a
 * bare array: both are read.
 */
export async function listModels(
  http: HttpClient,
  endpoint: OpenAiEndpoint,
  signal?: AbortSignal
): Promise<ListedModel[]> {
  const response = await http.request(endpointUrl(endpoint, 'models'), {
    headers: { ...endpointHeaders(endpoint, false), accept: 'application/json' },
    signal,
  })
  await ensureOk(response)
  const body = (await response.json()) as unknown
  const list = Array.isArray(body) ? body : (body as { data?: unknown })?.data
  if (!Array.isArray(list)) return []
  return list
    .filter((entry): entry is Record<string, unknown> => typeof entry?.id === 'string')
    .map((entry) => ({
      id: entry.id as string,
      name:
        typeof entry.name === 'string'
          ? entry.name
          : typeof entry.display_name === 'string'
            ? entry.display_name
            : undefined,
      created: typeof entry.created === 'number' ? entry.created : undefined,
    }))
}

export const MAX_TOOL_ROUNDS = 10

export interface ToolLoopResult {
  message: ChatMessage
  /** Token counts summed over every round. */
  usage: { inputTokens: number; outputTokens: number; totalTokens: number }
  rounds: number
  /** True when the model still asked for tools after the last allowed round. */
  capped: boolean
}

/**
 * A chat completion with tools: while the model asks for tool calls,
 * their results are appended and the model is called again, at most MAX_TOOL_ROUNDS times.
 * Each provider call is charged to the owner's AI credits as it happens.
 */
export async function chatWithTools(input: {
  http: HttpClient
  endpoint: OpenAiEndpoint
  request: ChatRequest
  ai: RunnerAi
  execute: (call: ToolCall) => Promise<string>
  signal?: AbortSignal
  maxRounds?: number
}): Promise<ToolLoopResult> {
  const maxRounds = input.maxRounds ?? MAX_TOOL_ROUNDS
  const messages = [...input.request.messages]
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  for (let round = 1; ; round++) {
    await input.ai.ensureCredits()
    const completion = await createChatCompletion(
      input.http,
      input.endpoint,
      { ...input.request, messages },
      input.signal
    )
    const inputTokens = completion.usage?.prompt_tokens ?? 0
    const outputTokens = completion.usage?.completion_tokens ?? 0
    usage.inputTokens += inputTokens
    usage.outputTokens += outputTokens
    usage.totalTokens += completion.usage?.total_tokens ?? inputTokens + outputTokens
    await input.ai.recordUsage({
      model: completion.model ?? input.request.model,
      inputTokens,
      outputTokens,
    })
    const message = completion.choices[0].message
    const calls = message.tool_calls ?? []
    if (calls.length === 0) return { message, usage, rounds: round, capped: false }
    if (round >= maxRounds) return { message, usage, rounds: round, capped: true }
    messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls })
    for (const call of calls) {
      messages.push({ role: 'tool', tool_call_id: call.id, content: await input.execute(call) })
    }
  }
}
