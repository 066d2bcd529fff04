import { definePlugin } from '#sdk/plugin'
import { modelNodeFields } from '#sdk/ai_fields'

/**
 * The Groq chat model for workflow LLM agents: attached to an agent's Model slot, it lends
 * the agent Groq's endpoint (the Groq credentials) and its model settings.
 */
export default definePlugin({
  id: 'groq-chat-model',
  name: 'Groq chat model',
  description: 'The language model of an LLM agent, served by Groq',
  category: 'model',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://console.groq.com/docs/api-reference',
  serves: ['workflow'],
  options: modelNodeFields({ credentialType: 'groq', defaultModel: 'llama-3.3-70b-versatile' }),
})
