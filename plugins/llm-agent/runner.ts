import type { Runner } from '#sdk/plugin'
import {
  type AgentTool,
  AI_ERRORS,
  apiAgentTool,
  chatErrorLog,
  customAgentTool,
  maxIterationsMessage,
  ModelUnreachableError,
  ProviderError,
  runAgent,
} from '#sdk/ai'
import type plugin from './index.js'

/** Groq's OpenAI-compatible API; the hidden baseUrl option replaces it (tests, proxies). */
export const GROQ_BASE_URL = 'https://api.groq.com/openai/v1'
export const GROQ_AGENT_MODEL = 'llama-3.3-70b-versatile'

/**
 * Runs the agent with the block's tools and maps its answer. A provider failure is logged
 * as the chat completions' API error and the flow goes on; a tool without code stops the
 * agent with 'Function code is undefined'.
 */
export const run: Runner<typeof plugin> = async ({
  options,
  variables,
  logger,
  http,
  sandbox,
  ai,
  signal,
}) => {
  if (options.agent !== 'groq') return logger.error(AI_ERRORS.unsupportedLlm)
  const apiKey = options.secretKey?.trim()
  if (!apiKey) return logger.error(AI_ERRORS.noApiKey)
  const userQuery = options.userQuery?.trim()
  if (!userQuery) return logger.error('The user query is empty')

  const tools: AgentTool[] = []
  if (options.customToolEnabled) {
    for (const stored of options.customTool ?? []) {
      const tool = customAgentTool(stored, sandbox)
      if (tool) tools.push(tool)
    }
  }
  if (options.apiConfigEnabled) {
    for (const stored of options.apiConfig ?? []) {
      const tool = apiAgentTool(stored, http, signal)
      if (tool) tools.push(tool)
    }
  }

  let result: Awaited<ReturnType<typeof runAgent>>
  try {
    result = await runAgent({
      http,
      ai,
      endpoint: { baseUrl: options.baseUrl?.trim() || GROQ_BASE_URL, apiKey },
      model: GROQ_AGENT_MODEL,
      temperature: 0,
      systemPrompt: options.queryPrompt,
      userQuery,
      tools,
      signal,
    })
  } catch (error) {
    // Tool failures ('Function code is undefined') and credit refusals are the block's own.
    if (!(error instanceof ProviderError || error instanceof ModelUnreachableError)) throw error
    const log = chatErrorLog(error)
    return logger.error(log.description, log.details)
  }

  if (result.toolCalls.length > 0) {
    logger.info(`The agent called ${result.toolCalls.length} tool(s)`, result.toolCalls)
  }
  if (result.capped) logger.error(maxIterationsMessage(result.iterations))
  for (const mapping of options.responseMapping ?? []) {
    if (!mapping.variableId) continue
    const item = mapping.item ?? 'Message content'
    if (item === 'Message content') variables.set(mapping.variableId, result.output)
    else if (item === 'Total tokens') variables.set(mapping.variableId, result.usage.totalTokens)
  }
}
