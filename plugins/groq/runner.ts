import {
  chatCompletionModule,
  chatModelFactory,
  type ChatModelFactory,
  type ChatProvider,
  modelNodeAlone,
} from '#sdk/ai'
import { GROQ_DEFAULT_BASE_URL } from './index.js'

/** Groq speaks the OpenAI chat-completions protocol: the shared runner does the work. */
export const provider: ChatProvider = {
  endpoint: (credentials) => ({
    baseUrl: String(credentials.baseUrl || GROQ_DEFAULT_BASE_URL),
    apiKey: String(credentials.apiKey ?? ''),
  }),
  defaultTemperature: 1,
}

const parts = chatCompletionModule(provider, (models) =>
  [...models].sort((a, b) => (a.created ?? 0) - (b.created ?? 0))
)
/** Bots create chat completions; a workflow Model node alone only says where it belongs. */
export default { ...parts.runners, 'Chat model': modelNodeAlone }
/** What a workflow LLM agent asks its attached Model node for (`ChatModelFactory` of `#sdk/ai`). */
export const chatModel: ChatModelFactory = chatModelFactory(provider)
export const streams = parts.streams
/** Groq's models, sorted by creation (oldest first). */
export const fetchers = parts.fetchers
