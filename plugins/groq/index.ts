import { definePlugin, field } from '#sdk/plugin'
import { chatCompletionFields, modelNodeAction } from '#sdk/ai_fields'

/** The product's default ("defined by the product"). */
export const GROQ_DEFAULT_BASE_URL = 'https://api.groq.com/openai/v1'

/**
 * Groq: fast inference of open models behind an OpenAI-compatible API. Bots create chat
 * completions; in workflows it is the Model node of an LLM agent (the agent borrows its
 * credentials and model settings).
 */
export default definePlugin({
  id: 'groq',
  name: 'Groq',
  fullName: 'Groq fast inference',
  tags: ['ai', 'llm', 'chat', 'model'],
  description: 'Fast chat completions from the open models Groq hosts',
  category: 'integration',
  categories: { workflow: 'model' },
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://console.groq.com/docs/api-reference',
  serves: ['bot', 'workflow'],
  // Workflows saved before the Model node became an action of this plugin store this id.
  aliases: ['groq-chat-model'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'gsk_...',
      secret: true,
      required: true,
      helperText: 'Create one in the Groq console under API keys.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: GROQ_DEFAULT_BASE_URL,
      helperText: 'Change it only to reach Groq through a proxy.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'groq',
      required: true,
    }),
  },
  actions: {
    'Create chat completion': {
      label: 'Create chat completion',
      surfaces: ['bot'],
      options: chatCompletionFields(),
    },
    'Chat model': modelNodeAction({ defaultModel: 'llama-3.3-70b-versatile' }),
  },
})
