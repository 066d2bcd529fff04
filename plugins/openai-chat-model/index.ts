import { definePlugin } from '#sdk/plugin'
import { modelNodeFields } from '#sdk/ai_fields'

/**
 * The OpenAI chat model for workflow LLM agents: attached to an agent's Model slot, it
 * lends the agent its endpoint (the OpenAI credentials, any compatible Base URL) and its
 * model settings.
 */
export default definePlugin({
  id: 'openai-chat-model',
  name: 'OpenAI chat model',
  description: 'The language model of an LLM agent, served by OpenAI or a compatible server',
  category: 'model',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://platform.openai.com/docs/api-reference/chat',
  serves: ['workflow'],
  options: modelNodeFields({ credentialType: 'openai', defaultModel: 'gpt-4o-mini' }),
})
