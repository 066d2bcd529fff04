import type { RunnerContext } from '../define_plugin.js'
import type { OpenAiEndpoint } from './openai_compatible.js'

/**
 * What a workflow Model node (category 'model', attached to an LLM agent node through an
 * edge with isAttachment and attachmentName 'model') lends the agent: an OpenAI-compatible
 * endpoint, a model and its settings. The model plugin's runner.ts exports `chatModel`;
 * the agent asks the registry for it (`exportOf(type, 'chatModel')`), so the agent never
 * names a provider. The context is the Model node's own (its options and credentials).
 */
export interface ChatModelConfig {
  endpoint: OpenAiEndpoint
  model: string
  temperature?: number
  topP?: number
  maxTokens?: number
  /** Extra tries of a model call that failed with a 5xx answer or a network error. */
  retries?: number
}

export type ChatModelFactory = (
  context: RunnerContext<any, any>
) => ChatModelConfig | Promise<ChatModelConfig>
