import { definePlugin, field } from '#sdk/plugin'
import { chatCompletionFields } from '#sdk/ai_fields'

/** Fixed for builders. */
export const TOGETHER_BASE_URL = 'https://api.together.xyz/v1'

/** Together AI: open models behind an OpenAI-compatible API. */
export default definePlugin({
  id: 'together-ai',
  name: 'Together AI',
  fullName: 'Together AI models',
  tags: ['ai', 'llm', 'chat', 'open source'],
  description: 'Chat completions from the open models Together AI hosts',
  category: 'integration',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://docs.together.ai/reference',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      secret: true,
      required: true,
      helperText: 'Find it in your Together AI settings under API keys.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'together-ai',
      required: true,
    }),
  },
  actions: {
    'Create chat completion': {
      label: 'Create chat completion',
      options: chatCompletionFields(),
    },
  },
})
