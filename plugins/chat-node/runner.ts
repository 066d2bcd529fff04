import type { Runner } from '#sdk/plugin'
import { AI_ERRORS, chatErrorLog, ensureOk, ProviderError } from '#sdk/ai'
import { CHAT_NODE_DEFAULT_BASE_URL } from './index.js'
import type plugin from './index.js'

/**
 * POST {baseUrl}/v1/{botId} with `message` and `chat_session_id`; the answer carries the
 * bot's `message` and the `chat_session_id` to send next time. An empty thread id starts
 * a new thread (the field is left out, so the service opens one).
 */

interface ChatNodeAnswer {
  message?: unknown
  chat_session_id?: unknown
}

export const run: Runner<typeof plugin> = async ({
  options,
  credentials,
  variables,
  logger,
  http,
  ai,
  signal,
}) => {
  const apiKey = credentials.apiKey?.trim()
  if (!apiKey) {
    logger.error(AI_ERRORS.noApiKey)
    return
  }
  const botId = options.botId?.trim()
  if (!botId) {
    logger.error('Bot ID is missing')
    return
  }
  const message = options.message ?? ''
  if (!message.trim()) {
    logger.error('Message is missing')
    return
  }
  const threadId = options.threadId?.trim() ?? ''

  // Outside the try: an owner without credits is reported by the engine, not as an API error.
  await ai.ensureCredits()
  let answer: ChatNodeAnswer
  try {
    const baseUrl = (credentials.baseUrl?.trim() || CHAT_NODE_DEFAULT_BASE_URL).replace(/\/+$/, '')
    const response = await http.request(`${baseUrl}/v1/${encodeURIComponent(botId)}`, {
      method: 'POST',
      headers: {
        'authorization': `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'accept': 'application/json',
      },
      body: JSON.stringify(threadId ? { message, chat_session_id: threadId } : { message }),
      // A bot answering from a large knowledge base can take a while.
      timeoutMs: 120_000,
      signal,
    })
    await ensureOk(response)
    answer = (await response.json()) as ChatNodeAnswer
    if (typeof answer?.message !== 'string') {
      throw new ProviderError(response.status, answer, 'The service answered without a message')
    }
  } catch (error) {
    const entry = chatErrorLog(error)
    logger.error(entry.description, entry.details)
    return
  }
  // The service reports no token counts: the call is recorded with zero tokens (and no
  // model), so the usage table still shows it and the default price row applies.
  await ai.recordUsage({ inputTokens: 0, outputTokens: 0 })

  const threadOut =
    typeof answer.chat_session_id === 'string' || typeof answer.chat_session_id === 'number'
      ? String(answer.chat_session_id)
      : threadId
  for (const mapping of options.responseMapping ?? []) {
    if (!mapping.variableId) continue
    const item = mapping.item ?? 'Message'
    if (item === 'Message') variables.set(mapping.variableId, answer.message as string)
    else if (item === 'Thread ID') variables.set(mapping.variableId, threadOut)
  }
}
