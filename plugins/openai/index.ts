import { definePlugin } from '../../app/plugins/define_plugin.js'
import { field } from '../../app/plugins/fields.js'

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'
export const OPENAI_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'] as const
export const OPENAI_IMAGE_SIZES = ['256x256', '512x512', '1024x1024'] as const

/**
 * OpenAI, and any OpenAI-compatible server (a local model server, Azure with apiVersion)
 * through the credential's baseUrl. The credentials and their test are complete; the
 * actions' runners arrive with the AI providers.
 */
export default definePlugin({
  id: 'openai',
  name: 'OpenAI',
  description: 'Chat completions, speech, transcription and images from OpenAI-compatible APIs',
  category: 'integration',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  docsUrl: 'https://platform.openai.com/docs/api-reference',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'sk-...',
      secret: true,
      required: true,
      helperText: 'Create one in your OpenAI account under API keys.',
    }),
    baseUrl: field.string({
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
  },
  actions: {
    'Create chat completion': {
      label: 'Create chat completion',
      options: {
        model: field.string({
          label: 'Model',
          defaultValue: 'gpt-4o-mini',
          optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'] },
        }),
        messages: field.list(
          {
            role: field.enum({
              label: 'Role',
              options: ['system', 'user', 'assistant', 'Dialogue'],
              defaultValue: 'user',
            }),
            content: field.string({
              label: 'Content',
              multiline: true,
              allowVariables: true,
              showIf: { field: 'role', notEquals: 'Dialogue' },
            }),
            dialogueVariableId: field.variable({
              label: 'Dialogue variable',
              showIf: { field: 'role', equals: 'Dialogue' },
            }),
            startsBy: field.enum({
              label: 'Starts by',
              options: ['user', 'assistant'],
              defaultValue: 'user',
              showIf: { field: 'role', equals: 'Dialogue' },
            }),
          },
          { label: 'Messages', itemLabel: 'message' }
        ),
        temperature: field.number({
          label: 'Temperature',
          min: 0,
          max: 2,
          step: 0.1,
          allowVariable: true,
        }),
        responseMapping: field.responseMapping({
          label: 'Save the response',
          from: ['Message content', 'Total tokens'],
        }),
      },
    },
    'Create speech': {
      label: 'Create speech',
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
  },
})
