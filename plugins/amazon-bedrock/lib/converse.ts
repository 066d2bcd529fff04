import type { HttpClient } from '#sdk/plugin'
import {
  type ChatCompletion,
  type ChatMessage,
  type ChatRequest,
  ensureOk,
  ProviderError,
  type ToolCall,
} from '#sdk/ai'
import { type AwsCredentials, signRequest } from './sigv4.js'

/**
 * Amazon Bedrock's Converse API (POST /model/{modelId}/converse, signed with SigV4 for the
 * service `bedrock`), spoken in the OpenAI chat-completions shape the agent loop uses:
 * tool calls are toolUse blocks, tool answers toolResult blocks of a user turn.
 */

export interface BedrockEndpoint {
  region: string
  /** The runtime endpoint; empty: https://bedrock-runtime.{region}.amazonaws.com */
  baseUrl?: string
  credentials: AwsCredentials
}

type Block =
  | { text: string }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: { toolUseId: string; content: { text: string }[] } }

interface ConverseMessage {
  role: 'user' | 'assistant'
  content: Block[]
}

export interface ConverseRequest {
  messages: ConverseMessage[]
  system?: { text: string }[]
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number }
  toolConfig?: {
    tools: { toolSpec: { name: string; description?: string; inputSchema: { json: unknown } } }[]
  }
}

interface ConverseResponse {
  output?: { message?: { role?: string; content?: Block[] } }
  stopReason?: string
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number }
}

export function runtimeUrl(endpoint: BedrockEndpoint): string {
  const base =
    endpoint.baseUrl?.trim() || `https://bedrock-runtime.${endpoint.region}.amazonaws.com`
  return base.replace(/\/+$/, '')
}

const textOf = (content: ChatMessage['content']) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : ''

function parseArgs(raw: string | undefined): unknown {
  try {
    return JSON.parse(raw || '{}')
  } catch {
    return {}
  }
}

/** The Converse body of a chat request. */
export function toConverseRequest(request: ChatRequest): ConverseRequest {
  const system: { text: string }[] = []
  const messages: ConverseMessage[] = []
  const push = (role: ConverseMessage['role'], blocks: Block[]) => {
    const last = messages.at(-1)
    // Converse wants turns to alternate: the results of several tool calls share one user turn.
    if (last && last.role === role) last.content.push(...blocks)
    else messages.push({ role, content: blocks })
  }
  for (const message of request.messages) {
    const text = textOf(message.content)
    if (message.role === 'system') {
      if (text.trim()) system.push({ text })
    } else if (message.role === 'user') {
      push('user', [{ text }])
    } else if (message.role === 'assistant') {
      const blocks: Block[] = text ? [{ text }] : []
      for (const call of message.tool_calls ?? []) {
        blocks.push({
          toolUse: {
            toolUseId: call.id,
            name: call.function.name,
            input: parseArgs(call.function.arguments),
          },
        })
      }
      if (blocks.length > 0) push('assistant', blocks)
    } else if (message.role === 'tool') {
      push('user', [
        {
          toolResult: {
            toolUseId: message.tool_call_id ?? '',
            content: [{ text: text || '(empty)' }],
          },
        },
      ])
    }
  }
  const body: ConverseRequest = { messages }
  if (system.length > 0) body.system = system
  const config: NonNullable<ConverseRequest['inferenceConfig']> = {}
  if (typeof request.max_tokens === 'number') config.maxTokens = request.max_tokens
  if (typeof request.temperature === 'number') config.temperature = request.temperature
  if (typeof request.top_p === 'number') config.topP = request.top_p
  if (Object.keys(config).length > 0) body.inferenceConfig = config
  if (request.tools?.length) {
    body.toolConfig = {
      tools: request.tools.map(({ function: fn }) => ({
        toolSpec: {
          name: String(fn.name),
          ...(fn.description ? { description: String(fn.description) } : {}),
          inputSchema: { json: fn.parameters ?? { type: 'object', properties: {} } },
        },
      })),
    }
  }
  return body
}

/** The chat completion a Converse answer amounts to. */
export function fromConverseResponse(body: ConverseResponse, model: string): ChatCompletion {
  const blocks = body.output?.message?.content
  if (!Array.isArray(blocks)) {
    throw new ProviderError(
      502,
      body,
      `Bedrock gave no answer (${body.stopReason ?? 'no message'})`
    )
  }
  let text = ''
  const toolCalls: ToolCall[] = []
  for (const block of blocks) {
    if ('text' in block && typeof block.text === 'string') text += block.text
    if ('toolUse' in block && block.toolUse?.name) {
      toolCalls.push({
        id: block.toolUse.toolUseId,
        type: 'function',
        function: {
          name: block.toolUse.name,
          arguments: JSON.stringify(block.toolUse.input ?? {}),
        },
      })
    }
  }
  const message: ChatMessage = { role: 'assistant', content: text }
  if (toolCalls.length > 0) message.tool_calls = toolCalls
  const usage = body.usage ?? {}
  return {
    model,
    choices: [{ message, finish_reason: body.stopReason }],
    usage: {
      prompt_tokens: usage.inputTokens ?? 0,
      completion_tokens: usage.outputTokens ?? 0,
      total_tokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
    },
  }
}

/** Signs and sends a Converse call; answers a chat completion. */
export function converseTransport(endpoint: BedrockEndpoint) {
  return async (http: HttpClient, request: ChatRequest, signal?: AbortSignal) => {
    const url = new URL(
      `${runtimeUrl(endpoint)}/model/${encodeURIComponent(request.model)}/converse`
    )
    const body = JSON.stringify(toConverseRequest(request))
    const headers = signRequest({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', 'accept': 'application/json' },
      body,
      region: endpoint.region,
      service: 'bedrock',
      credentials: endpoint.credentials,
    })
    // Signed, but the HTTP client sets Host itself from the URL.
    delete headers.host
    const response = await http.request(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: 120_000,
      signal,
    })
    await ensureOk(response)
    return fromConverseResponse((await response.json()) as ConverseResponse, request.model)
  }
}
