import { definePlugin, field } from '#sdk/plugin'
import { chatMessagesField, functionToolsField, knowledgeFields } from '#sdk/ai_fields'

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com'
/** Claude 3 Opus, temperature 1, 1024 tokens. */
export const ANTHROPIC_DEFAULT_MODEL = 'claude-3-opus-20240229'
export const ANTHROPIC_DEFAULT_TEMPERATURE = 1
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024
/**
 * The models offered before a key is chosen (with a key, the list comes live from the
 * API): Claude 3 Opus and Haiku, then the later generations.
 * Older 2.x and instant models are hidden.
 */
export const ANTHROPIC_MODELS = [
  'claude-3-opus-20240229',
  'claude-3-sonnet-20240229',
  'claude-3-haiku-20240307',
  'claude-3-5-sonnet-20241022',
  'claude-3-5-haiku-20241022',
  'claude-3-7-sonnet-20250219',
  'claude-sonnet-4-20250514',
  'claude-opus-4-20250514',
] as const

/**
 * Claude models through the Anthropic Messages API: answers with the conversation so far,
 * a system message, function tools, knowledge stores searched as a tool and images for
 * vision models.
 */
export default definePlugin({
  id: 'anthropic',
  name: 'Anthropic',
  fullName: 'Anthropic Claude',
  tags: ['ai', 'llm', 'claude', 'chat'],
  description: 'Chat with Claude models',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://docs.anthropic.com/en/api/messages',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'sk-ant-...',
      secret: true,
      required: true,
      helperText: 'Create one in the Anthropic console under API keys.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: ANTHROPIC_BASE_URL,
      helperText: 'Change it only to go through a proxy speaking the same API.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'anthropic',
      required: true,
    }),
  },
  actions: {
    'Create Chat Message': {
      label: 'Create Chat Message',
      options: {
        model: field.string({
          label: 'Model',
          defaultValue: ANTHROPIC_DEFAULT_MODEL,
          optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'] },
        }),
        messages: chatMessagesField(),
        systemMessage: field.string({
          label: 'System message',
          multiline: true,
          allowVariables: true,
        }),
        tools: functionToolsField(),
        ...knowledgeFields(),
        temperature: field.number({
          label: 'Temperature',
          min: 0,
          max: 1,
          step: 0.1,
          defaultValue: ANTHROPIC_DEFAULT_TEMPERATURE,
          allowVariables: true,
        }),
        maxTokens: field.number({
          label: 'Max tokens',
          min: 1,
          defaultValue: ANTHROPIC_DEFAULT_MAX_TOKENS,
          allowVariables: true,
        }),
        responseMapping: field.responseMapping({
          label: 'Save the response',
          from: ['Message Content', 'Knowledge sources'],
        }),
      },
    },
  },
})
