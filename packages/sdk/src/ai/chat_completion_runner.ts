import {
  streamReply,
  type Fetcher,
  type HttpClient,
  type Runner,
  type RunnerContext,
  type Streamer,
} from '../runner_types.js'
import { AI_ERRORS, ProviderError, chatErrorLog } from './errors.js'
import type { ChatModelConfig, ChatModelFactory, ListedModel } from './types.js'
import { openAiToolsOf, type StoredFunctionTool, type ToolSchema } from './function_tools.js'
import { chatToolsOf } from './chat_tools.js'
import { toChatMessages, withImageParts, type StoredMessage } from './messages.js'
import { knowledgeStoresOf } from './knowledge.js'
import {
  chatWithTools,
  listModels,
  streamChatCompletion,
  type ChatRequest,
  type ChatUsage,
  type OpenAiEndpoint,
} from './openai_compatible.js'
import { isAiCreditError } from './provider_runs.js'

/**
 * The "Create chat completion" action of every OpenAI-compatible provider plugin (OpenAI,
 * OpenRouter, Together AI, Groq): one implementation of the options, runtime checks,
 * logs, tool loop, vision parts, streaming and credit accounting, so that the providers
 * differ only in where they send the request. Server only: plugin runners import it.
 */

export interface ChatCompletionOptions {
  model?: string
  messages?: StoredMessage[]
  tools?: StoredFunctionTool[]
  temperature?: number | string
  knowledgeStores?: { storeId?: string }[]
  knowledgeDocuments?: number | string
  responseMapping?: { id?: string; item?: string; variableId?: string }[]
  [key: string]: unknown
}

export const MESSAGE_CONTENT = 'Message content'
export const TOTAL_TOKENS = 'Total tokens'
export interface ChatProvider {
  /**
   * Where the requests go, from the decrypted credentials. An empty apiKey is reported as
   * 'No API key provided' before any call.
   */
  endpoint(credentials: Record<string, unknown>): OpenAiEndpoint
  /** Every provider here defaults to 1. */
  defaultTemperature?: number
  /** Models that take image parts in user messages (OpenAI's vision models). */
  isVisionModel?(model: string): boolean
}

type Context = RunnerContext<ChatCompletionOptions, Record<string, unknown>>

/** A temperature typed as a number or substituted from a {{variable}}. */
export function temperatureOf(value: unknown, fallback?: number): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value)
    if (Number.isFinite(parsed)) return parsed
  }
  return fallback
}

function mappedVariable(options: ChatCompletionOptions, item: string): string | undefined {
  return options.responseMapping?.find((entry) => entry.item === item && entry.variableId)
    ?.variableId
}

/** Rough tokens of a text (about four characters each), when a server sends no usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** The Content-Type of a URL by a HEAD request (vision: only images become image parts). */
export function contentTypeBy(http: HttpClient, signal?: AbortSignal) {
  return async (url: string) => {
    const response = await http.request(url, { method: 'HEAD', timeoutMs: 5_000, signal })
    return response.headers.get('content-type') ?? undefined
  }
}

/**
 * The request both paths send: messages (Dialogue entries expanded, image parts for vision
 * models), temperature, and the `tools` given (chatToolsOf's schemas).
 */
async function chatRequest(
  provider: ChatProvider,
  context: Context,
  model: string,
  tools: readonly ToolSchema[] = []
): Promise<ChatRequest> {
  const { options, variables, http, signal } = context
  let messages = toChatMessages(options.messages, variables)
  if (provider.isVisionModel?.(model)) {
    messages = await withImageParts(messages, contentTypeBy(http, signal))
  }
  const request: ChatRequest = { model, messages }
  const temperature = temperatureOf(options.temperature, provider.defaultTemperature ?? 1)
  if (temperature !== undefined) request.temperature = temperature
  const requestTools = openAiToolsOf(tools)
  if (requestTools) request.tools = requestTools as unknown as ChatRequest['tools']
  return request
}

/** Checks credentials and model before any call; returns the endpoint and model, or logs and stops. */
function preconditions(provider: ChatProvider, context: Context) {
  const endpoint = provider.endpoint(context.credentials ?? {})
  if (!endpoint.apiKey) return { error: AI_ERRORS.noApiKey } as const
  const model = context.options.model?.trim()
  if (!model) return { error: AI_ERRORS.noModelSelected } as const
  return { endpoint, model } as const
}

/**
 * The runner of "Create chat completion". The answer goes to the 'Message content'
 * mapping, the tokens of every round to 'Total tokens'. When the visitor's client streams,
 * the next bubble shows the answer and the block has no tools, it returns a stream pause
 * instead (the client then calls the plugin's streamer).
 * A provider failure is logged with the provider's status and message and the flow goes on.
 */
export function chatCompletionRunner(provider: ChatProvider): Runner<any, any> {
  return async (context: Context) => {
    const { options, variables, logger, bot } = context
    const checked = preconditions(provider, context)
    if ('error' in checked) {
      logger.error(checked.error!)
      return {}
    }
    // A block with tools answers whole: a tool round needs the model's complete reply before
    // the next call, which a token stream to the visitor cannot wait for.
    const contentVariableId = mappedVariable(options, MESSAGE_CONTENT)
    const tools = chatToolsOf(context)
    if (contentVariableId && tools.schemas.length === 0 && bot?.canStreamTo?.(contentVariableId)) {
      return streamReply(contentVariableId)
    }
    try {
      const request = await chatRequest(provider, context, checked.model, tools.schemas)
      const result = await chatWithTools({
        http: context.http,
        endpoint: checked.endpoint,
        request,
        ai: context.ai,
        signal: context.signal,
        execute: (call) => tools.execute(call.function.name, call.function.arguments),
      })
      const content = result.message.content
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((part) => (part.type === 'text' ? part.text : '')).join('')
            : ''
      if (result.capped) {
        logger.info(
          `The model still asked for tools after ${result.rounds} rounds: the answer is the last one it gave.`
        )
      }
      for (const entry of options.responseMapping ?? []) {
        if (!entry.variableId) continue
        if (entry.item === MESSAGE_CONTENT) variables.set(entry.variableId, text)
        else if (entry.item === TOTAL_TOKENS)
          variables.set(entry.variableId, result.usage.totalTokens)
      }
      tools.report({ variables, logger, responseMapping: options.responseMapping })
      return {}
    } catch (error) {
      if (isAiCreditError(error)) throw error
      const log = chatErrorLog(error)
      logger.error(log.description, log.details)
      return {}
    }
  }
}

/**
 * The streamed answer of "Create chat completion" (the plugin's `streams` export). Tools
 * are not used when streaming: the runner does not ask for a stream when the block has tools
 * (it answers whole), and the streamer never sends them. Failures throw ProviderErrors whose status and message the
 * stream endpoint answers with (401 'API key missing', 400 'model not found', ...).
 */
export function chatCompletionStreamer(provider: ChatProvider): Streamer<any, any> {
  return async function* (context: Context) {
    const { options, variables, ai } = context
    const endpoint = provider.endpoint(context.credentials ?? {})
    if (!endpoint.apiKey) {
      throw new ProviderError(401, null, AI_ERRORS.streamApiKeyMissing)
    }
    const model = options.model?.trim()
    if (!model) throw new ProviderError(400, null, AI_ERRORS.streamModelNotFound)
    const request = await chatRequest(provider, context, model)
    await ai.ensureCredits()
    let usage: ChatUsage | undefined
    let text = ''
    const recordStreamUsage = async () => {
      const promptText = request.messages
        .map((message) => (typeof message.content === 'string' ? message.content : ''))
        .join('\n')
      const inputTokens = usage?.prompt_tokens ?? estimateTokens(promptText)
      const outputTokens = usage?.completion_tokens ?? estimateTokens(text)
      await ai.recordUsage({ model, inputTokens, outputTokens })
      const totalVariableId = mappedVariable(options, TOTAL_TOKENS)
      if (totalVariableId) {
        variables.set(totalVariableId, usage?.total_tokens ?? inputTokens + outputTokens)
      }
    }
    try {
      for await (const chunk of streamChatCompletion(context.http, endpoint, request, {
        signal: context.signal,
        onUsage: (received) => (usage = received),
      })) {
        text += chunk
        yield chunk
      }
    } catch (error) {
      if (error instanceof ProviderError || isAiCreditError(error)) throw error
      // The OpenAI family's fallback is the unknown-error text; the
      // stream endpoint answers it with status 500.
      throw new ProviderError(500, null, AI_ERRORS.unknown)
    } finally {
      // What was generated was billed by the provider, even when the stream broke off; a
      // request the provider refused (nothing received) costs nothing.
      if (usage || text) await recordStreamUsage()
    }
  }
}

/**
 * The `models` fetcher of a provider: the key's models as {value, label}. `select` filters
 * and orders them (OpenAI keeps gpt and tts ids, Groq sorts by creation).
 */
export function modelsFetcher(
  provider: ChatProvider,
  select: (models: ListedModel[]) => ListedModel[] = (models) => models
): Fetcher<any> {
  return async ({ credentials, http, signal }) => {
    const endpoint = provider.endpoint(credentials ?? {})
    if (!endpoint.apiKey) throw new Error(AI_ERRORS.noApiKey)
    const models = select(await listModels(http, endpoint, signal))
    return models.map((model) => ({ value: model.id, label: model.name ?? model.id }))
  }
}

/**
 * What the runner module of a provider that only speaks OpenAI's chat completions exports:
 * the action's runner (`default`), its streamer (only blocks without tools stream) and the
 * live model list.
 */
export function chatCompletionModule(
  provider: ChatProvider,
  selectModels?: (models: ListedModel[]) => ListedModel[]
) {
  return {
    runners: { 'Create chat completion': chatCompletionRunner(provider) },
    streams: { 'Create chat completion': chatCompletionStreamer(provider) },
    fetchers: {
      models: modelsFetcher(provider, selectModels),
      knowledgeStores: knowledgeStoresFetcher,
    },
  }
}

/** The stores of the block's workspace, for the Knowledge stores field. */
export const knowledgeStoresFetcher: Fetcher<any> = async ({ workspaceId }) =>
  workspaceId ? knowledgeStoresOf(workspaceId) : []

/**
 * The credential "Test" of a compatible provider: listing the models is the cheapest call
 * that needs a valid key.
 */
export async function testByListingModels(
  provider: ChatProvider,
  context: { credentials: Record<string, unknown>; http: HttpClient; signal?: AbortSignal }
): Promise<{ ok: boolean; message: string }> {
  const endpoint = provider.endpoint(context.credentials)
  if (!endpoint.apiKey) return { ok: false, message: AI_ERRORS.streamApiKeyMissing }
  try {
    const models = await listModels(context.http, endpoint, context.signal)
    const count = models.length
    return { ok: true, message: `Connected: ${count} model${count === 1 ? '' : 's'} available.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}

export const MODEL_NODE_ALONE =
  'A Model node only works attached to an LLM agent node (its Model slot): on its own it does nothing.'

function boundedNumber(value: unknown, min: number, max: number): number | undefined {
  const parsed = temperatureOf(value)
  if (parsed === undefined) return undefined
  return Math.min(max, Math.max(min, parsed))
}

/**
 * The `chatModel` export of a workflow Model node (`ChatModelFactory` in types.ts): the
 * provider's endpoint from the node's credentials, and the node's model settings.
 */
export function chatModelFactory(provider: ChatProvider): ChatModelFactory {
  return (context) => {
    const endpoint = provider.endpoint(context.credentials ?? {})
    if (!endpoint.apiKey) throw new Error(AI_ERRORS.noApiKey)
    const options = (context.options ?? {}) as Record<string, unknown>
    const model = typeof options.model === 'string' ? options.model.trim() : ''
    if (!model) throw new Error(AI_ERRORS.noModelSelected)
    const config: ChatModelConfig = { endpoint, model }
    const temperature = boundedNumber(options.temperature, 0, 2)
    if (temperature !== undefined) config.temperature = temperature
    const topP = boundedNumber(options.topP, 0, 1)
    if (topP !== undefined) config.topP = topP
    const maxTokens = boundedNumber(options.maxTokens, 1, 32768)
    if (maxTokens !== undefined) config.maxTokens = Math.round(maxTokens)
    return config
  }
}

/** A Model node run as a step of its own: it says where it belongs and passes its input on. */
export const modelNodeAlone = (context: RunnerContext<any, any>) => {
  context.logger.info(MODEL_NODE_ALONE)
}
