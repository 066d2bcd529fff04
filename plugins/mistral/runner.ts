import {
  type Fetcher,
  type OptionsOf,
  type Runner,
  type RunnerContext,
  type Streamer,
  streamReply,
  type VariableValue,
} from '#sdk/plugin'
import {
  AI_ERRORS,
  type ChatMessage,
  type ChatRequest,
  type ChatUsage,
  chatWithTools,
  createChatCompletion,
  endpointHeaders,
  endpointUrl,
  ensureOk,
  listModels,
  mappedVariableId,
  type OpenAiEndpoint,
  openAiToolsOf,
  type ToolSchema,
  ProviderError,
  providerFailureLog,
  readSseJson,
  setMapped,
  type StoredMessage,
  streamFailure,
  toChatMessages,
  openAiCompatibleEmbeddings,
  type EmbeddingProvider,
  chatToolsOf,
  knowledgeStoresFetcher,
} from '#sdk/ai'
import plugin, { MISTRAL_BASE_URL } from './index.js'

type Plugin = typeof plugin
type ChatContext = RunnerContext<
  OptionsOf<Plugin, 'Create chat completion'>,
  Record<string, unknown>
>

const MESSAGE_CONTENT = 'Message content'

/** The block's messages, worded as the other AI blocks word theirs. */
export const GENERATE_VARIABLES_ERRORS = {
  noPrompt: 'No prompt provided',
  unparsable: 'Could not parse variables to extract',
  invalid: 'Generated object is not valid',
} as const

export function endpointOf(credentials: Record<string, unknown> | undefined): OpenAiEndpoint {
  return {
    apiKey: String(credentials?.apiKey ?? '').trim(),
    baseUrl: String(credentials?.baseUrl || MISTRAL_BASE_URL),
  }
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content.map((part) => (part.type === 'text' ? part.text : '')).join('')
  return ''
}

/** The request of both chat paths. Mistral has no temperature option. */
function chatRequestOf(
  context: ChatContext,
  model: string,
  tools: readonly ToolSchema[] = []
): ChatRequest {
  const request: ChatRequest = {
    model,
    messages: toChatMessages(context.options.messages as StoredMessage[], context.variables),
  }
  const requestTools = openAiToolsOf(tools)
  if (requestTools) request.tools = requestTools as unknown as ChatRequest['tools']
  return request
}

/**
 * Create chat completion: the answer goes to 'Message content'. Like the other providers,
 * a block without tools whose answer the next bubble shows streams when the client asks;
 * with tools each round needs the whole previous answer, so it runs here.
 */
const createChatCompletionRunner: Runner<Plugin, 'Create chat completion'> = async (context) => {
  const { options, credentials, variables, logger, bot } = context
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) return logger.error(AI_ERRORS.noApiKey)
  const model = options.model?.trim()
  if (!model) return logger.error(AI_ERRORS.noModelSelected)

  const contentVariableId = mappedVariableId(options.responseMapping, MESSAGE_CONTENT)
  // The block's function tools and the stores the model may search (docs/knowledge.md).
  const tools = chatToolsOf(context)
  if (tools.schemas.length === 0 && contentVariableId && bot?.canStreamTo?.(contentVariableId)) {
    return streamReply(contentVariableId)
  }
  try {
    const result = await chatWithTools({
      http: context.http,
      endpoint,
      request: chatRequestOf(context, model, tools.schemas),
      ai: context.ai,
      signal: context.signal,
      execute: (call) => tools.execute(call.function.name, call.function.arguments),
    })
    if (result.capped) {
      logger.info(
        `The model still asked for tools after ${result.rounds} rounds: the answer is the last one it gave.`
      )
    }
    setMapped(variables, options.responseMapping, MESSAGE_CONTENT, textOf(result.message.content))
    tools.report({ variables, logger, responseMapping: options.responseMapping })
  } catch (error) {
    const log = providerFailureLog(error)
    logger.error(log.description, log.details)
  }
}

/** Rough tokens of a text (about four characters each), when the server sends no usage. */
function estimateTokens(text: string) {
  return Math.ceil(text.length / 4)
}

/**
 * The streamed chat completion. Written here rather than with the shared OpenAI stream:
 * Mistral refuses request fields it does not know (stream_options among them) and sends
 * the usage in its last chunk on its own. Failures throw ProviderErrors: 401 'API key
 * missing', 400 'model not found', else the provider's status with 'An error occured
 * while generating the stream'.
 */
const streamChatCompletion: Streamer<Plugin, 'Create chat completion'> = async function* (context) {
  const { options, ai } = context
  const endpoint = endpointOf(context.credentials)
  if (!endpoint.apiKey) throw new ProviderError(401, null, AI_ERRORS.streamApiKeyMissing)
  const model = options.model?.trim()
  if (!model) throw new ProviderError(400, null, AI_ERRORS.streamModelNotFound)
  const request = chatRequestOf(context, model)
  await ai.ensureCredits()
  let usage: ChatUsage | undefined
  let text = ''
  let answered = false
  try {
    const response = await context.http.request(endpointUrl(endpoint, 'chat/completions'), {
      method: 'POST',
      headers: { ...endpointHeaders(endpoint), accept: 'text/event-stream' },
      body: JSON.stringify({ ...request, stream: true }),
      timeoutMs: 120_000,
      signal: context.signal,
    })
    await ensureOk(response)
    answered = true
    for await (const { json } of readSseJson<any>(response)) {
      if (json?.object === 'error' || json?.error) {
        throw new ProviderError(500, json, AI_ERRORS.stream)
      }
      const delta = json?.choices?.[0]?.delta?.content
      if (typeof delta === 'string' && delta) {
        text += delta
        yield delta
      }
      if (json?.usage) usage = json.usage
    }
  } catch (error) {
    throw streamFailure(error)
  } finally {
    // A stream that started was billed by the provider, even when it broke off.
    if (answered) {
      const prompt = request.messages.map((message) => textOf(message.content)).join('\n')
      await ai.recordUsage({
        model,
        inputTokens: usage?.prompt_tokens ?? estimateTokens(prompt),
        outputTokens: usage?.completion_tokens ?? estimateTokens(text),
      })
    }
  }
}

// ---------------------------------------------------------------------------
// Generate variables
// ---------------------------------------------------------------------------

type ExtractedType = 'string' | 'number' | 'boolean' | 'enum'

interface Extraction {
  variableId: string
  /** The key the model fills: the variable's name, which tells the model what it holds. */
  key: string
  type: ExtractedType
  values: string[]
  description?: string
  isRequired: boolean
}

/**
 * The variables to extract, checked against the bot's variables. Null when the list
 * cannot be used: empty, a variable that no longer exists, an enum without values.
 */
export function extractionsOf(
  entries: readonly Record<string, any>[] | undefined,
  variables: readonly { id: string; name: string }[]
): Extraction[] | null {
  const extractions: Extraction[] = []
  for (const entry of entries ?? []) {
    const variable = variables.find((candidate) => candidate.id === entry.variableId)
    if (!variable) return null
    const type: ExtractedType = entry.type ?? 'string'
    const values = ((entry.values ?? []) as ({ value?: string } | string)[])
      .map((value) => (typeof value === 'string' ? value : (value?.value ?? '')).trim())
      .filter(Boolean)
    if (type === 'enum' && values.length === 0) return null
    if (extractions.some((other) => other.key === variable.name)) return null
    extractions.push({
      variableId: variable.id,
      key: variable.name,
      type,
      values,
      description: entry.description?.trim() || undefined,
      isRequired: entry.isRequired !== false,
    })
  }
  return extractions.length > 0 ? extractions : null
}

/** The JSON schema the model is asked to follow. */
export function extractionSchema(extractions: readonly Extraction[]) {
  const properties: Record<string, Record<string, unknown>> = {}
  for (const extraction of extractions) {
    const property: Record<string, unknown> =
      extraction.type === 'enum'
        ? { type: 'string', enum: extraction.values }
        : { type: extraction.type }
    if (extraction.description) property.description = extraction.description
    properties[extraction.key] = property
  }
  return {
    type: 'object',
    properties,
    required: extractions.filter((e) => e.isRequired).map((e) => e.key),
    additionalProperties: false,
  }
}

/**
 * Checks the model's object against the extractions. Numbers and booleans written as
 * text ("42", "true") are accepted as such: models do that, and the value is unambiguous.
 * Returns the values to set, or the problems found.
 */
export function validateExtracted(
  object: unknown,
  extractions: readonly Extraction[]
): { values: { id: string; value: VariableValue }[] } | { problems: string[] } {
  if (!object || typeof object !== 'object' || Array.isArray(object))
    return { problems: ['The answer is not a JSON object'] }
  const values: { id: string; value: VariableValue }[] = []
  const problems: string[] = []
  for (const extraction of extractions) {
    const raw = (object as Record<string, unknown>)[extraction.key]
    if (raw === undefined || raw === null || raw === '') {
      if (extraction.isRequired) problems.push(`${extraction.key} is missing`)
      continue
    }
    let value: VariableValue | undefined
    if (extraction.type === 'number') {
      const number =
        typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN
      if (Number.isFinite(number)) value = number
    } else if (extraction.type === 'boolean') {
      if (typeof raw === 'boolean') value = raw
      else if (raw === 'true' || raw === 'false') value = raw === 'true'
    } else if (extraction.type === 'enum') {
      if (typeof raw === 'string' && extraction.values.includes(raw)) value = raw
    } else if (typeof raw === 'string') {
      value = raw
    }
    if (value === undefined) problems.push(`${extraction.key} is not a valid ${extraction.type}`)
    else values.push({ id: extraction.variableId, value })
  }
  return problems.length > 0 ? { problems } : { values }
}

function extractionInstructions(schema: unknown) {
  return [
    'You extract information from the user message.',
    'Answer with one JSON object and nothing else. It must follow this JSON schema:',
    JSON.stringify(schema),
    'Leave out a property (or set it to null) when the message does not give it.',
  ].join('\n')
}

/**
 * Generate variables: the model reads the prompt and answers a JSON object (JSON mode,
 * the schema in the system message); the object is checked against the variables' types
 * before any variable is set, so a wrong answer changes nothing.
 */
const generateVariables: Runner<Plugin, 'Generate variables'> = async (context) => {
  const { options, credentials, variables, logger } = context
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) return logger.error(AI_ERRORS.noApiKey)
  const model = options.model?.trim()
  if (!model) return logger.error(AI_ERRORS.noModelSelected)
  const prompt = options.prompt?.trim()
  if (!prompt) return logger.error(GENERATE_VARIABLES_ERRORS.noPrompt)
  const extractions = extractionsOf(options.variablesToExtract as any, variables.list())
  if (!extractions) return logger.error(GENERATE_VARIABLES_ERRORS.unparsable)

  const schema = extractionSchema(extractions)
  let content: string
  try {
    await context.ai.ensureCredits()
    const completion = await createChatCompletion(
      context.http,
      endpoint,
      {
        model,
        messages: [
          { role: 'system', content: extractionInstructions(schema) },
          { role: 'user', content: prompt },
        ],
        response_format: { type: 'json_object' },
      },
      context.signal
    )
    await context.ai.recordUsage({
      model: completion.model ?? model,
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    })
    content = textOf(completion.choices[0].message.content)
  } catch (error) {
    const log = providerFailureLog(error)
    return logger.error(log.description, log.details)
  }

  let object: unknown
  try {
    object = JSON.parse(content)
  } catch {
    return logger.error(GENERATE_VARIABLES_ERRORS.invalid, { answer: content })
  }
  const checked = validateExtracted(object, extractions)
  if ('problems' in checked) {
    return logger.error(GENERATE_VARIABLES_ERRORS.invalid, { object, problems: checked.problems })
  }
  for (const { id, value } of checked.values) variables.set(id, value)
}

/** The runners by action name (the action is stored in options.action). */
export default {
  'Create chat completion': createChatCompletionRunner,
  'Generate variables': generateVariables,
}

export const streams = { 'Create chat completion': streamChatCompletion }

/** GET /models with the key: the ids of data[]. */
const models: Fetcher<Plugin> = async ({ credentials, http, signal }) => {
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) throw new Error(AI_ERRORS.noApiKey)
  return (await listModels(http, endpoint, signal)).map((model) => ({
    value: model.id,
    label: model.id,
  }))
}

export const fetchers = { models, knowledgeStores: knowledgeStoresFetcher }

/** Knowledge stores embed their chunks with these credentials (docs/knowledge.md). */
export const embeddings: EmbeddingProvider = openAiCompatibleEmbeddings({
  endpoint: endpointOf,
  defaultModel: 'mistral-embed',
})
