import type {
  HttpClient,
  HttpRequestOptions,
  RunnerAi,
  RunnerContext,
  RunnerSandbox,
} from '../runner_types.js'
import type { AgentTool, AgentToolFactory } from './types.js'
import { ProviderError } from './errors.js'
import { executeFunctionTool, formatToolOutput, toolSchema } from './function_tools.js'
import type { ChatMessage, ToolCall } from './messages.js'
import { chatWithTools, type OpenAiEndpoint } from './openai_compatible.js'
import {
  AGENT_INPUT_TYPES,
  API_PARAM_TYPES,
  API_TOOL_DEFAULT_TIMEOUT_MS,
  API_TOOL_MAX_TIMEOUT_MS,
  API_TOOL_MIN_TIMEOUT_MS,
  API_TOOL_METHODS,
  DEFAULT_SYSTEM_PROMPT,
} from './agent_fields.js'

/**
 * The LLM agent: a model that may call tools, in a loop of at most
 * AGENT_MAX_ITERATIONS model calls. Shared by the bot block and the workflow node; its tools
 * are user-defined code (run in the sandbox) and user-defined HTTP APIs. Server only.
 */

export const AGENT_MAX_ITERATIONS = 5
/** Extra tries of a model call that failed with a 5xx answer or a network error. */
export const AGENT_PROVIDER_RETRIES = 2
/** What an API answered is cut here before it goes back to the model (its context is small). */
export const API_TOOL_MAX_ANSWER_CHARS = 20_000

// A Tool node's tools and their factory: the SDK declares them (`@flowcraft/sdk/ai`).
export type { AgentTool, AgentToolFactory }

export interface AgentToolCall {
  name: string
  arguments: Record<string, unknown>
  output: string
}

// ---------------------------------------------------------------------------
// Custom tools: code run in the sandbox
// ---------------------------------------------------------------------------

export interface StoredCustomTool {
  name?: string
  description?: string
  functionCode?: string
  multiVariable?: {
    inputVariable?: string
    inputType?: (typeof AGENT_INPUT_TYPES)[number]
    inputDescription?: string
  }[]
}

/**
 * A tool whose answer is the value its code returns; the model's arguments are variables
 * of the code. No code: 'Function code is undefined' stops the agent. An error of the
 * code goes back to the model as its name and message (the sandbox's limits: 10 s, 32 MB).
 */
export function customAgentTool(
  stored: StoredCustomTool,
  sandbox: RunnerSandbox | undefined
): AgentTool | undefined {
  const functionTool = {
    name: stored.name,
    description: stored.description,
    code: stored.functionCode,
    parameters: (stored.multiVariable ?? []).map((input) => ({
      name: input.inputVariable,
      type: input.inputType ?? 'string',
      description: input.inputDescription,
      required: true,
    })),
  }
  const schema = toolSchema(functionTool)
  if (!schema) return undefined
  return {
    schema,
    execute: (args) => executeFunctionTool(sandbox, [functionTool], schema.name, args),
  }
}

// ---------------------------------------------------------------------------
// API tools: a configured HTTP call
// ---------------------------------------------------------------------------

export interface StoredApiParam {
  name?: string
  type?: (typeof API_PARAM_TYPES)[number]
  description?: string
}

export interface StoredApiTool {
  name?: string
  description?: string
  method?: (typeof API_TOOL_METHODS)[number]
  /** May hold {param} placeholders, filled from the `params` the model gives. */
  url?: string
  /** JSON object text. */
  headers?: string
  /** Path parameters (the {param} placeholders of the URL). */
  params?: StoredApiParam[]
  queryParams?: StoredApiParam[]
  /** JSON text: a JSON schema of the body, or an example body. */
  bodySchema?: string
  timeout?: number | string
}

function parseJson(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (!text?.trim()) return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value)

/** A JSON schema is recognised by its keywords; anything else is an example of the body. */
function bodyParameterSchema(bodySchema: string | undefined): Record<string, unknown> | null {
  const parsed = parseJson(bodySchema)
  if (!parsed.ok) {
    return { type: 'object', description: `The JSON body, shaped like: ${bodySchema}` }
  }
  if (parsed.value === undefined) return null
  if (isObject(parsed.value) && ('properties' in parsed.value || 'type' in parsed.value)) {
    return parsed.value
  }
  return {
    type: 'object',
    description: `The JSON body, shaped like: ${JSON.stringify(parsed.value)}`,
  }
}

export function apiToolTimeout(value: unknown): number {
  const number = Number(value)
  if (value === undefined || value === null || value === '' || !Number.isFinite(number)) {
    return API_TOOL_DEFAULT_TIMEOUT_MS
  }
  return Math.min(Math.max(Math.round(number), API_TOOL_MIN_TIMEOUT_MS), API_TOOL_MAX_TIMEOUT_MS)
}

/** The value of an argument as it goes into a URL. */
const urlValue = (value: unknown) =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value)

/**
 * A tool calling the configured API: {param} placeholders of the URL are filled with the
 * path parameters (URL-encoded), query parameters go to the query string, and for methods
 * other than GET the `body` argument (shaped by bodySchema) is sent as JSON. Every failure
 * (bad configuration, network, an error status) goes back to the model as error text.
 */
export function apiAgentTool(stored: StoredApiTool, http: HttpClient, signal?: AbortSignal) {
  const method = (stored.method ?? 'GET').toUpperCase()
  const pathParams = (stored.params ?? []).filter((param) => param.name?.trim())
  const queryParams = (stored.queryParams ?? []).filter((param) => param.name?.trim())
  const properties: Record<string, Record<string, unknown>> = {}
  const required: string[] = []
  for (const param of [...pathParams, ...queryParams]) {
    const name = param.name!.trim()
    properties[name] = {
      type: param.type ?? 'string',
      ...(param.description ? { description: param.description } : {}),
    }
    // Path parameters cannot be left out of a URL; query parameters can.
    if (pathParams.includes(param)) required.push(name)
  }
  const body = method === 'GET' ? null : bodyParameterSchema(stored.bodySchema)
  if (body) {
    properties.body = body
    required.push('body')
  }
  const name = stored.name?.trim()
  if (!name) return undefined
  const tool: AgentTool = {
    schema: {
      name,
      description: stored.description || undefined,
      parameters: { type: 'object', properties, required },
    },
    async execute(args) {
      const headers = parseJson(stored.headers)
      if (!headers.ok || (headers.value !== undefined && !isObject(headers.value))) {
        return 'Error: the headers of this tool are not a valid JSON object'
      }
      const url = (stored.url ?? '').replace(/\{([^{}]+)\}/g, (whole, key: string) => {
        const value = args[key.trim()]
        return value === undefined ? whole : encodeURIComponent(urlValue(value))
      })
      let target: URL
      try {
        target = new URL(url)
      } catch {
        return `Error: "${url}" is not a valid URL`
      }
      for (const param of queryParams) {
        const value = args[param.name!.trim()]
        if (value !== undefined && value !== null) {
          target.searchParams.set(param.name!.trim(), urlValue(value))
        }
      }
      const requestHeaders: Record<string, string> = { accept: 'application/json, text/plain, */*' }
      for (const [key, value] of Object.entries((headers.value ?? {}) as Record<string, unknown>)) {
        requestHeaders[key] = urlValue(value)
      }
      const options: HttpRequestOptions = {
        method,
        headers: requestHeaders,
        timeoutMs: apiToolTimeout(stored.timeout),
        signal,
      }
      if (method !== 'GET') {
        if (!Object.keys(requestHeaders).some((key) => key.toLowerCase() === 'content-type')) {
          requestHeaders['content-type'] = 'application/json'
        }
        options.body = JSON.stringify(args.body ?? {})
      }
      try {
        const response = await http.request(target, options)
        const text = (await response.text()).slice(0, API_TOOL_MAX_ANSWER_CHARS)
        if (!response.ok) return `Error: the API answered ${response.status}: ${text}`
        return text
      } catch (error) {
        return `Error: ${(error as Error).message}`
      }
    },
  }
  return tool
}

// ---------------------------------------------------------------------------
// The loop
// ---------------------------------------------------------------------------

/** 5xx answers and network failures are worth another try; 4xx answers are not. */
function isRetryable(error: unknown, signal?: AbortSignal) {
  if (signal?.aborted) return false
  if (error instanceof ProviderError) return error.status >= 500
  // A host the guarded client refuses (internal, unresolvable) stays refused.
  return error instanceof Error && !['AbortError', 'BlockedRequestError'].includes(error.name)
}

/** The model could not be reached (network failure) even after the retries. */
export class ModelUnreachableError extends Error {
  constructor(cause: unknown) {
    super((cause as Error)?.message ?? String(cause), { cause })
    this.name = 'ModelUnreachableError'
  }
}

/**
 * An HTTP client that tries a request again (after a short pause) when it fails with a
 * 5xx answer or a network error, `retries` times at most. The last answer is the caller's;
 * a last network failure becomes a ModelUnreachableError.
 */
export function retryingHttp(http: HttpClient, retries: number, pauseMs = 200): HttpClient {
  return {
    async request(url, options = {}) {
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await http.request(url, options)
          if (response.status < 500 || attempt >= retries) return response
          await response.body?.cancel().catch(() => {})
        } catch (error) {
          if (!isRetryable(error, options.signal)) throw error
          if (attempt >= retries) throw new ModelUnreachableError(error)
        }
        await new Promise((resolve) => setTimeout(resolve, pauseMs * (attempt + 1)))
      }
    },
  }
}

export interface AgentRunInput {
  http: HttpClient
  ai: RunnerAi
  endpoint: OpenAiEndpoint
  model: string
  temperature?: number
  topP?: number
  maxTokens?: number
  systemPrompt?: string
  userQuery: string
  tools: AgentTool[]
  signal?: AbortSignal
  maxIterations?: number
  retries?: number
  retryPauseMs?: number
}

export interface AgentRunResult {
  output: string
  toolCalls: AgentToolCall[]
  iterations: number
  /** The model still asked for tools at the last allowed iteration. */
  capped: boolean
  usage: { inputTokens: number; outputTokens: number; totalTokens: number }
}

function parseArguments(raw: string | undefined): Record<string, unknown> | string {
  if (!raw?.trim()) return {}
  try {
    const parsed = JSON.parse(raw)
    return isObject(parsed) ? parsed : {}
  } catch {
    return `Error: the arguments are not valid JSON: ${raw}`
  }
}

/**
 * Runs the agent: the model is called with the tools' schemas; each tool call is answered
 * and fed back, until the model answers without tool calls or AGENT_MAX_ITERATIONS model
 * calls were made. Each call is charged to the owner's AI credits (ensureCredits before,
 * recordUsage after) and retried on provider failures.
 */
export async function runAgent(input: AgentRunInput): Promise<AgentRunResult> {
  const toolsByName = new Map(input.tools.map((tool) => [tool.schema.name, tool]))
  const toolCalls: AgentToolCall[] = []
  const messages: ChatMessage[] = [
    { role: 'system', content: input.systemPrompt?.trim() || DEFAULT_SYSTEM_PROMPT },
    { role: 'user', content: input.userQuery },
  ]
  const execute = async (call: ToolCall) => {
    const args = parseArguments(call.function?.arguments)
    const tool = toolsByName.get(call.function?.name)
    let output: string
    if (typeof args === 'string') output = args
    else if (!tool) output = `Error: there is no tool named "${call.function?.name}"`
    else output = formatToolOutput(await tool.execute(args))
    toolCalls.push({
      name: call.function?.name,
      arguments: typeof args === 'string' ? {} : args,
      output,
    })
    return output
  }
  const request: Parameters<typeof chatWithTools>[0]['request'] = {
    model: input.model,
    messages,
    temperature: input.temperature ?? 0,
  }
  if (input.topP !== undefined) request.top_p = input.topP
  if (input.maxTokens !== undefined) request.max_tokens = input.maxTokens
  if (input.tools.length > 0) {
    request.tools = input.tools.map((tool) => ({
      type: 'function' as const,
      function: tool.schema as unknown as Record<string, unknown>,
    }))
  }
  const result = await chatWithTools({
    http: retryingHttp(input.http, input.retries ?? AGENT_PROVIDER_RETRIES, input.retryPauseMs),
    endpoint: input.endpoint,
    request,
    ai: input.ai,
    execute,
    signal: input.signal,
    maxRounds: input.maxIterations ?? AGENT_MAX_ITERATIONS,
  })
  const content = result.message.content
  const output =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => (part.type === 'text' ? part.text : '')).join('')
        : ''
  return {
    output,
    toolCalls,
    iterations: result.rounds,
    capped: result.capped,
    usage: result.usage,
  }
}

/** What the agent logs when it ran out of iterations (the answer may be empty). */
export function maxIterationsMessage(iterations: number) {
  return `The agent stopped after ${iterations} iterations without a final answer`
}

export const TOOL_NODE_ALONE =
  'A Tool node only works attached to an LLM agent node (its Tools slot): on its own it does nothing.'

/** A Tool node run as a step of its own: it says where it belongs and passes its input on. */
export const toolNodeAlone = (context: RunnerContext<any, any>) => {
  context.logger.info(TOOL_NODE_ALONE)
}
