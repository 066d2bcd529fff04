import { chatCompletionModule, type ChatProvider } from '#sdk/ai'
import { TOGETHER_BASE_URL } from './index.js'

/**
 * Together AI speaks the OpenAI chat-completions protocol: the shared runner does the work.
 * The base URL is fixed for builders; `service` exists so tests can point it at a stand-in.
 */
export const service = { baseUrl: TOGETHER_BASE_URL }

export const provider: ChatProvider = {
  endpoint: (credentials) => ({
    baseUrl: service.baseUrl,
    apiKey: String(credentials.apiKey ?? ''),
  }),
  defaultTemperature: 1,
}

const parts = chatCompletionModule(provider)
export default parts.runners
export const streams = parts.streams
/** Together answers GET /models with a bare array (listModels reads both shapes). */
export const fetchers = parts.fetchers
