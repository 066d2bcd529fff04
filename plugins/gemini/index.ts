import { definePlugin, field } from '#sdk/plugin'
import { modelNodeAction } from '#sdk/ai_fields'

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com'
export const GEMINI_DEFAULT_MODEL = 'gemini-2.0-flash'
/** Gemini's maxTokens is 1 to 4096. */
export const GEMINI_MAX_TOKENS = 4096

const modelNode = modelNodeAction({ defaultModel: GEMINI_DEFAULT_MODEL })

/**
 * Google's Gemini models as the Model node of workflow LLM agents, through the Gemini API
 * (generateContent with function declarations for the agent's tools).
 */
export default definePlugin({
  id: 'gemini',
  name: 'Gemini',
  fullName: 'Google Gemini chat model',
  tags: ['ai', 'llm', 'google', 'model'],
  description: "Google's Gemini models for LLM agents",
  category: 'model',
  scope: 'user',
  icon: 'gem',
  version: 1,
  docsUrl: 'https://ai.google.dev/api/generate-content',
  serves: ['workflow'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'AIza...',
      secret: true,
      required: true,
      helperText: 'Create one in Google AI Studio under Get API key.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: GEMINI_DEFAULT_BASE_URL,
      helperText: 'Change it only to reach the Gemini API through a proxy.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'gemini',
      required: true,
    }),
  },
  actions: {
    'Chat model': {
      ...modelNode,
      options: {
        ...modelNode.options,
        maxTokens: field.number({
          label: 'Maximum tokens',
          min: 1,
          max: GEMINI_MAX_TOKENS,
          step: 1,
        }),
      },
    },
  },
})
