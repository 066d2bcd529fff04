import {
  type Fetcher,
  type OptionsOf,
  type Runner,
  type RunnerContext,
  type Streamer,
  streamReply,
} from '#sdk/plugin'
import {
  AI_ERRORS,
  type AnthropicEndpoint,
  type AnthropicRequest,
  anthropicSeesImages,
  anthropicToolsOf,
  chatToolsOf,
  knowledgeStoresFetcher,
  isListedAnthropicModel,
  listAnthropicModels,
  mappedVariableId,
  messageWithTools,
  numberOption,
  ProviderError,
  providerFailureLog,
  setMapped,
  type StoredMessage,
  type ToolSchema,
  streamFailure,
  streamMessage,
  toAnthropicConversation,
  toChatMessages,
  withAnthropicImages,
} from '#sdk/ai'
import plugin, {
  ANTHROPIC_BASE_URL,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_DEFAULT_TEMPERATURE,
  ANTHROPIC_MODELS,
} from './index.js'

type Plugin = typeof plugin
type ChatOptions = OptionsOf<Plugin, 'Create Chat Message'>
type ChatContext = RunnerContext<ChatOptions, Record<string, unknown>>

const MESSAGE_CONTENT = 'Message Content'

export function endpointOf(credentials: Record<string, unknown> | undefined): AnthropicEndpoint {
  return {
    apiKey: String(credentials?.apiKey ?? '').trim(),
    baseUrl: String(credentials?.baseUrl || ANTHROPIC_BASE_URL),
  }
}

/** The request of both paths: conversation, system message, sampling, the tools given. */
async function requestOf(
  context: ChatContext,
  model: string,
  tools: readonly ToolSchema[] = []
): Promise<AnthropicRequest> {
  const { options, variables, http, signal } = context
  let messages = toChatMessages(options.messages as StoredMessage[] | undefined, variables)
  let images
  if (anthropicSeesImages(model)) {
    ;({ messages, images } = await withAnthropicImages(messages, http, signal))
  }
  const conversation = toAnthropicConversation(messages, {
    systemMessage: options.systemMessage,
    images,
  })
  const request: AnthropicRequest = {
    model,
    max_tokens: Math.max(
      1,
      Math.round(numberOption(options.maxTokens, ANTHROPIC_DEFAULT_MAX_TOKENS))
    ),
    temperature: numberOption(options.temperature, ANTHROPIC_DEFAULT_TEMPERATURE),
    messages: conversation.messages,
  }
  if (conversation.system) request.system = conversation.system
  const requestTools = anthropicToolsOf(tools)
  if (requestTools) request.tools = requestTools
  return request
}

/**
 * Create Chat Message: the answer goes to the 'Message Content' mapping, the names of the
 * sources the model read with "search_knowledge" to 'Knowledge sources'. A block without
 * tools or knowledge stores whose answer the next bubble shows is streamed when the
 * visitor's client asks for it (the client then calls `streams` below). With tools the
 * answer is computed here: each tool round needs the whole previous answer, which a token
 * stream cannot wait for.
 */
const createChatMessage: Runner<Plugin, 'Create Chat Message'> = async (context) => {
  const { options, credentials, variables, logger, bot } = context
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) return logger.error(AI_ERRORS.noApiKey)
  const model = options.model?.trim()
  if (!model) return logger.error(AI_ERRORS.noModel)

  const contentVariableId = mappedVariableId(options.responseMapping, MESSAGE_CONTENT)
  // The function tools and "search_knowledge" (docs/knowledge.md) as for every chat block:
  // only their wire format is Anthropic's (tool_use in, tool_result back).
  const tools = chatToolsOf(context)
  if (tools.schemas.length === 0 && contentVariableId && bot?.canStreamTo?.(contentVariableId)) {
    return streamReply(contentVariableId)
  }
  try {
    const result = await messageWithTools({
      http: context.http,
      endpoint,
      request: await requestOf(context, model, tools.schemas),
      ai: context.ai,
      signal: context.signal,
      execute: (call) => tools.execute(call.name, call.input),
    })
    if (result.capped) {
      logger.info(
        `The model still asked for tools after ${result.rounds} rounds: the answer is the last one it gave.`
      )
    }
    setMapped(variables, options.responseMapping, MESSAGE_CONTENT, result.text)
    tools.report({ variables, logger, responseMapping: options.responseMapping })
  } catch (error) {
    const log = providerFailureLog(error)
    logger.error(log.description, log.details)
  }
}

/**
 * The streamed answer. Failures throw ProviderErrors: the stream endpoint answers with
 * their status (401 'API key missing', 400 'model not found', the provider's own status
 * otherwise, 500 'An error occured while generating the stream' when there is none).
 */
const streamChatMessage: Streamer<Plugin, 'Create Chat Message'> = async function* (context) {
  const { options, ai } = context
  const endpoint = endpointOf(context.credentials)
  if (!endpoint.apiKey) throw new ProviderError(401, null, AI_ERRORS.streamApiKeyMissing)
  const model = options.model?.trim()
  if (!model) throw new ProviderError(400, null, AI_ERRORS.streamModelNotFound)
  const request = await requestOf(context, model)
  await ai.ensureCredits()
  let usage: { model?: string; inputTokens: number; outputTokens: number } | undefined
  try {
    yield* streamMessage(context.http, endpoint, request, {
      signal: context.signal,
      onUsage: (received) => (usage = received),
    })
  } catch (error) {
    throw streamFailure(error)
  } finally {
    // The usage arrives with the stream's last events; a stream cut short still bills
    // what message_start announced.
    if (usage && (usage.inputTokens > 0 || usage.outputTokens > 0)) await ai.recordUsage(usage)
  }
}

export const streams = { 'Create Chat Message': streamChatMessage }

/** The runners by action name (the action is stored in options.action). */
export default { 'Create Chat Message': createChatMessage }

/**
 * The model list: live from the API once an account is chosen (so new models appear
 * without a release), the known list before that. Older 2.x and instant models are hidden.
 */
const models: Fetcher<Plugin> = async ({ credentials, http, signal }) => {
  const endpoint = endpointOf(credentials)
  const ids = endpoint.apiKey
    ? (await listAnthropicModels(http, endpoint, signal)).filter(isListedAnthropicModel)
    : [...ANTHROPIC_MODELS]
  return ids.map((id) => ({ value: id, label: id }))
}

export const fetchers = { models, knowledgeStores: knowledgeStoresFetcher }
