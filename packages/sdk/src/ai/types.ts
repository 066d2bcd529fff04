import type { HttpClient, RunnerContext } from '../runner_types.js'

/**
 * The shapes `@flowcraft/sdk/ai` speaks in: OpenAI-compatible endpoints, messages and
 * completions, what a Model node lends an agent and what a Tool node gives it.
 */

export interface OpenAiEndpoint {
  baseUrl: string
  apiKey: string
  /** Azure-style endpoints: sent as ?api-version= and the api-key header. */
  apiVersion?: string
  headers?: Record<string, string>
  /**
   * A provider with a protocol of its own answers chat completions through this instead: it
   * translates the request and the answer, so tool loops, agents and retries stay the same.
   */
  complete?: ChatTransport
}

export type ChatTransport = (
  http: HttpClient,
  request: ChatRequest,
  signal?: AbortSignal
) => Promise<ChatCompletion>

export type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

export interface ToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string | ContentPart[] | null
  tool_calls?: ToolCall[]
  tool_call_id?: string
  name?: string
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  temperature?: number
  tools?: { type: 'function'; function: Record<string, unknown> }[]
  [key: string]: unknown
}

export interface ChatUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
}

export interface ChatCompletion {
  id?: string
  model?: string
  choices: { message: ChatMessage; finish_reason?: string }[]
  usage?: ChatUsage
}

/** A model a key may use, as GET {baseUrl}/models lists it. */
export interface ListedModel {
  id: string
  name?: string
  created?: number
}

/**
 * What a workflow Model node (category 'model', attached to an LLM agent node through an
 * edge with isAttachment and attachmentName 'model') lends the agent: an OpenAI-compatible
 * endpoint, a model and its settings. The model plugin's runner.ts exports `chatModel`; the
 * agent asks the registry for it, so the agent never names a provider.
 */
export interface ChatModelConfig {
  endpoint: OpenAiEndpoint
  model: string
  temperature?: number
  topP?: number
  maxTokens?: number
  /** Extra tries of a model call that failed with a 5xx answer or a network error. */
  retries?: number
}

/** A Model plugin's `chatModel` export, called with the Model node's own context. */
export type ChatModelFactory = (
  context: RunnerContext<any, any>
) => ChatModelConfig | Promise<ChatModelConfig>

/** A function the model may call: its name, description and JSON schema of parameters. */
export interface ToolSchema {
  name: string
  description?: string
  parameters: {
    type: 'object'
    properties: Record<string, Record<string, unknown>>
    required: string[]
  }
}

export interface AgentTool {
  schema: ToolSchema
  /**
   * Answers a call of the model. What the model should see (including a tool's own
   * failure) is returned as text; a throw stops the agent.
   */
  execute(args: Record<string, unknown>): Promise<string>
}

/** A Tool plugin's `agentTools` export, called with the Tool node's own context. */
export type AgentToolFactory = (
  context: RunnerContext<any, any>
) => AgentTool | AgentTool[] | Promise<AgentTool | AgentTool[]>
