import {
  type HttpClient,
  keyValueToRecord,
  type OptionsOf,
  type Runner,
  type RunnerContext,
  type Streamer,
  streamReply,
} from '#sdk/plugin'
import {
  AI_ERRORS,
  ensureOk,
  mappedVariableId,
  ProviderError,
  providerFailureLog,
  readSseJson,
  setMapped,
} from '#sdk/ai'
import plugin, { DIFY_ENDPOINT_MESSAGE, difyOrigin } from './index.js'

type Plugin = typeof plugin
type ChatContext = RunnerContext<OptionsOf<Plugin, 'Create Chat Message'>, Record<string, unknown>>

export const NO_QUERY = 'No query provided'
const ANSWER = 'Answer'
const CONVERSATION_ID = 'Conversation ID'
const TOTAL_TOKENS = 'Total Tokens'

interface DifyUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
}

/** What the event stream told us, filled while it is read. */
interface DifyOutcome {
  answer: string
  conversationId?: string
  usage?: DifyUsage
  /** The server accepted the request: from here on the call is billed. */
  answered: boolean
}

interface Prepared {
  origin: string
  apiKey: string
  body: Record<string, unknown>
}

/** Checks the credentials and options; returns the request, or the error to report. */
function prepare(context: ChatContext): Prepared | { error: string; status: number } {
  const { options, credentials, variables, bot } = context
  const apiKey = String(credentials?.apiKey ?? '').trim()
  if (!apiKey) return { error: AI_ERRORS.noApiKey, status: 401 }
  // Checked on save too; a record saved before that rule, or edited, is checked here.
  const origin = difyOrigin(credentials?.apiEndpoint)
  if (!origin) return { error: DIFY_ENDPOINT_MESSAGE, status: 400 }
  const query = options.query?.trim()
  if (!query) return { error: NO_QUERY, status: 400 }
  const stored = options.conversationVariableId
    ? variables.get(options.conversationVariableId)
    : undefined
  return {
    origin,
    apiKey,
    body: {
      inputs: keyValueToRecord(options.inputs),
      query,
      response_mode: 'streaming',
      // Empty starts a new conversation; Dify answers with its id, saved for next time.
      conversation_id: typeof stored === 'string' ? stored.trim() : '',
      // Dify requires a user id: the chat's result (one visitor) unless one is given.
      user: options.user?.trim() || bot?.resultId || bot?.sessionId || 'anonymous',
      files: [],
    },
  }
}

/**
 * POST {origin}/v1/chat-messages in streaming mode, yielding the answer's deltas (message
 * and agent_message events) and filling `outcome` (conversation id, message_end usage).
 * Streaming mode also for the plain run: agent apps answer only in that mode.
 */
async function* answerDeltas(
  http: HttpClient,
  prepared: Prepared,
  outcome: DifyOutcome,
  signal?: AbortSignal
): AsyncGenerator<string> {
  const response = await http.request(`${prepared.origin}/v1/chat-messages`, {
    method: 'POST',
    headers: {
      'authorization': `Bearer ${prepared.apiKey}`,
      'content-type': 'application/json',
      'accept': 'text/event-stream',
    },
    body: JSON.stringify(prepared.body),
    timeoutMs: 120_000,
    signal,
  })
  await ensureOk(response)
  outcome.answered = true
  for await (const { event, json } of readSseJson<any>(response)) {
    const type = json?.event ?? event
    if (typeof json?.conversation_id === 'string' && json.conversation_id)
      outcome.conversationId = json.conversation_id
    if (type === 'message' || type === 'agent_message') {
      if (typeof json.answer === 'string' && json.answer) {
        outcome.answer += json.answer
        yield json.answer
      }
    } else if (type === 'message_replace') {
      // Dify's output moderation replaces what was said so far.
      outcome.answer = typeof json.answer === 'string' ? json.answer : ''
    } else if (type === 'message_end') {
      outcome.usage = json.metadata?.usage ?? outcome.usage
    } else if (type === 'error') {
      throw new ProviderError(json.status ?? 500, json, json.message ?? AI_ERRORS.unknown)
    }
  }
}

/** Rough tokens of a text (about four characters each), when no message_end came. */
function estimateTokens(text: string) {
  return Math.ceil(text.length / 4)
}

/** Charges the call: Dify's usage when it sent one. Dify names no model: the default price. */
async function recordUsage(context: ChatContext, prepared: Prepared, outcome: DifyOutcome) {
  if (!outcome.answered) return
  await context.ai.recordUsage({
    inputTokens: outcome.usage?.prompt_tokens ?? estimateTokens(String(prepared.body.query)),
    outputTokens: outcome.usage?.completion_tokens ?? estimateTokens(outcome.answer),
  })
}

function totalTokens(outcome: DifyOutcome) {
  const usage = outcome.usage
  if (!usage) return undefined
  return usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0)
}

/** The conversation id (kept for the next turn) and the mapped values. */
function saveOutcome(context: ChatContext, outcome: DifyOutcome, withAnswer: boolean) {
  const { options, variables } = context
  if (options.conversationVariableId && outcome.conversationId)
    variables.set(options.conversationVariableId, outcome.conversationId)
  if (withAnswer) setMapped(variables, options.responseMapping, ANSWER, outcome.answer)
  if (outcome.conversationId)
    setMapped(variables, options.responseMapping, CONVERSATION_ID, outcome.conversationId)
  const total = totalTokens(outcome)
  if (total !== undefined) setMapped(variables, options.responseMapping, TOTAL_TOKENS, total)
}

/**
 * Create Chat Message. When the visitor's client streams and the next bubble shows the
 * Answer variable, the block pauses and the client streams from `streams` below (which
 * saves the conversation id itself).
 */
const createChatMessage: Runner<Plugin, 'Create Chat Message'> = async (context) => {
  const { options, logger, bot } = context
  const prepared = prepare(context)
  if ('error' in prepared) return logger.error(prepared.error)

  const answerVariableId = mappedVariableId(options.responseMapping, ANSWER)
  if (answerVariableId && bot?.canStreamTo?.(answerVariableId)) {
    return streamReply(answerVariableId)
  }
  const outcome: DifyOutcome = { answer: '', answered: false }
  try {
    await context.ai.ensureCredits()
    // The pieces are gathered in `outcome.answer`; nothing to do with each one here.
    const deltas = answerDeltas(context.http, prepared, outcome, context.signal)
    while (!(await deltas.next()).done);
    saveOutcome(context, outcome, true)
  } catch (error) {
    const log = providerFailureLog(error)
    logger.error(log.description, log.details)
  } finally {
    await recordUsage(context, prepared, outcome)
  }
}

/**
 * What a failed stream throws: 401 'API key missing', Dify's own
 * status and message otherwise, the unknown-error text for anything that is not an answer
 * of Dify (the fallback every AI provider but Mistral and Anthropic uses).
 */
function streamFailure(error: unknown): ProviderError {
  if (!(error instanceof ProviderError)) {
    return new ProviderError(500, { message: (error as Error)?.message }, AI_ERRORS.unknown)
  }
  if (error.status === 401) return new ProviderError(401, error.body, AI_ERRORS.streamApiKeyMissing)
  return error
}

const streamChatMessage: Streamer<Plugin, 'Create Chat Message'> = async function* (context) {
  const prepared = prepare(context)
  if ('error' in prepared) {
    throw new ProviderError(
      prepared.status,
      null,
      prepared.status === 401 ? AI_ERRORS.streamApiKeyMissing : prepared.error
    )
  }
  await context.ai.ensureCredits()
  const outcome: DifyOutcome = { answer: '', answered: false }
  try {
    yield* answerDeltas(context.http, prepared, outcome, context.signal)
    // The answer comes back with the client's continueChat; the rest is saved here.
    saveOutcome(context, outcome, false)
  } catch (error) {
    throw streamFailure(error)
  } finally {
    await recordUsage(context, prepared, outcome)
  }
}

/** The runners by action name (the action is stored in options.action). */
export default { 'Create Chat Message': createChatMessage }

export const streams = { 'Create Chat Message': streamChatMessage }
