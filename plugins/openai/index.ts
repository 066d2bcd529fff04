import { definePlugin, field } from '#sdk/plugin'
import { chatCompletionFields, modelNodeAction } from '#sdk/ai_fields'

const BOT: ['bot'] = ['bot']

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'
export const OPENAI_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'] as const
export const OPENAI_IMAGE_SIZES = ['256x256', '512x512', '1024x1024'] as const

/**
 * OpenAI, and any OpenAI-compatible server (a local model server, Azure with apiVersion)
 * through the credential's baseUrl. Bots use its four actions; in workflows it is the Model
 * node of an LLM agent. Runners in runner.ts (server only).
 */
export default definePlugin({
  id: 'openai',
  name: 'OpenAI',
  fullName: 'OpenAI (ChatGPT, DALL-E, Whisper)',
  tags: ['ai', 'llm', 'gpt', 'chatgpt'],
  description: 'Chat completions, speech, transcription and images from OpenAI-compatible APIs',
  category: 'integration',
  categories: { workflow: 'model' },
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://platform.openai.com/docs/api-reference',
  serves: ['bot', 'workflow'],
  importsFrom: { n8n: ['@n8n/n8n-nodes-langchain.lmChatOpenAi'] },
  // Workflows saved before the Model node became an action of this plugin store this id.
  aliases: ['openai-chat-model'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'sk-...',
      secret: true,
      required: true,
      helperText: 'Create one in your OpenAI account under API keys.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: OPENAI_DEFAULT_BASE_URL,
      helperText: 'Change it to use an OpenAI-compatible server.',
    }),
    apiVersion: field.string({
      label: 'API version',
      placeholder: '2024-02-01',
      helperText: 'Only for Azure-style endpoints.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'openai',
      required: true,
    }),
    // Kept from imported blocks of the format, never used: the server a key is sent to is
    // the one its owner set on the credential, so an editor of the bot cannot redirect it.
    baseUrl: field.string({ label: 'Base URL', hidden: true }),
    apiVersion: field.string({ label: 'API version', hidden: true }),
  },
  actions: {
    'Create chat completion': {
      label: 'Create chat completion',
      surfaces: BOT,
      options: {
        ...chatCompletionFields({ defaultModel: 'gpt-4o-mini' }),
      },
    },
    'Create speech': {
      label: 'Create speech',
      surfaces: BOT,
      options: {
        model: field.string({ label: 'Model', defaultValue: 'tts-1' }),
        input: field.string({
          label: 'Input',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
        voice: field.enum({ label: 'Voice', options: OPENAI_VOICES, defaultValue: 'alloy' }),
        saveUrlInVariableId: field.variable({ label: 'Save the audio URL in', writes: true }),
      },
    },
    'Create transcription': {
      label: 'Create transcription',
      surfaces: BOT,
      options: {
        url: field.string({ label: 'Audio URL', allowVariables: true, required: true }),
        transcriptionVariableId: field.variable({
          label: 'Save the transcription in',
          writes: true,
        }),
      },
    },
    'Create image': {
      label: 'Create image',
      surfaces: BOT,
      options: {
        prompt: field.string({
          label: 'Prompt',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
        size: field.enum({ label: 'Size', options: OPENAI_IMAGE_SIZES, defaultValue: '1024x1024' }),
        saveUrlInVariableId: field.variable({ label: 'Save the image URL in', writes: true }),
      },
    },
    'Chat model': modelNodeAction({ defaultModel: 'gpt-4o-mini', fetcher: 'chatModels' }),
  },
})
