import { definePlugin, field } from '#sdk/plugin'
import { chatCompletionFields } from '#sdk/ai_fields'

/** Fixed for builders. */
export const OPEN_ROUTER_BASE_URL = 'https://openrouter.ai/api/v1'

/** OpenRouter: many providers' models behind one OpenAI-compatible API. */
export default definePlugin({
  id: 'open-router',
  name: 'OpenRouter',
  fullName: 'OpenRouter models',
  tags: ['ai', 'llm', 'chat', 'router'],
  description: 'Chat completions from the models OpenRouter serves',
  category: 'integration',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://openrouter.ai/docs',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'sk-or-...',
      secret: true,
      required: true,
      helperText: 'Create one in your OpenRouter account under Keys.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'open-router',
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
