import type { Fetcher } from '#sdk/plugin'
import { AI_ERRORS, type ChatModelConfig, type ChatModelFactory, modelNodeAlone } from '#sdk/ai'
import plugin, { GEMINI_DEFAULT_BASE_URL, GEMINI_MAX_TOKENS } from './index.js'
import { type GeminiEndpoint, geminiTransport, listGeminiModels } from './lib/generate_content.js'

export function endpointOf(credentials: Record<string, unknown> | undefined): GeminiEndpoint {
  return {
    apiKey: String(credentials?.apiKey ?? '').trim(),
    baseUrl: String(credentials?.baseUrl || GEMINI_DEFAULT_BASE_URL),
  }
}

function bounded(value: unknown, min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : undefined
}

/**
 * What an LLM agent borrows from this Model node: the node's key and settings, and a
 * transport turning the agent's chat requests into generateContent calls.
 */
export const chatModel: ChatModelFactory = ({ credentials, options }) => {
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) throw new Error(AI_ERRORS.noApiKey)
  const model = typeof options?.model === 'string' ? options.model.trim() : ''
  if (!model) throw new Error(AI_ERRORS.noModelSelected)
  const config: ChatModelConfig = {
    endpoint: {
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      complete: geminiTransport(endpoint),
    },
    model,
  }
  const temperature = bounded(options.temperature, 0, 2)
  if (temperature !== undefined) config.temperature = temperature
  const topP = bounded(options.topP, 0, 1)
  if (topP !== undefined) config.topP = topP
  const maxTokens = bounded(options.maxTokens, 1, GEMINI_MAX_TOKENS)
  if (maxTokens !== undefined) config.maxTokens = Math.round(maxTokens)
  return config
}

/** On its own, the node only says where it belongs. */
export default { 'Chat model': modelNodeAlone }

/** The account's models that generate content, live from the API. */
const models: Fetcher<typeof plugin> = async ({ credentials, http, signal }) => {
  const endpoint = endpointOf(credentials)
  if (!endpoint.apiKey) return []
  const ids = await listGeminiModels(http, endpoint, signal)
  return ids.map((id) => ({ value: id, label: id }))
}

export const fetchers = { models }
