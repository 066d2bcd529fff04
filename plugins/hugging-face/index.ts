import { definePlugin, field } from '#sdk/plugin'

export const HUGGING_FACE_DEFAULT_BASE_URL = 'https://api-inference.huggingface.co'

/**
 * Hugging Face, the model hub: the block runs a hosted model on a text (generation,
 * classification, summarising, text to image...) and saves the result: the text, the JSON
 * answer, or the URL of the stored image.
 */
export default definePlugin({
  id: 'hugging-face',
  name: 'Hugging Face',
  fullName: 'Hugging Face Inference',
  tags: ['ai', 'llm', 'models', 'inference'],
  description: 'Run a model of the Hugging Face hub on a text',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://huggingface.co/docs/api-inference',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'Access token',
      placeholder: 'hf_...',
      secret: true,
      required: true,
      helperText: 'Create one in your Hugging Face settings under Access Tokens.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: HUGGING_FACE_DEFAULT_BASE_URL,
      helperText: 'Change it to use a dedicated inference endpoint or another compatible server.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'hugging-face',
      required: true,
    }),
    modelId: field.string({
      label: 'Model',
      placeholder: 'openai-community/gpt2',
      required: true,
      allowVariables: true,
    }),
    text: field.string({ label: 'Text', multiline: true, allowVariables: true, required: true }),
    saveResultInVariableId: field.variable({
      label: 'Save the result in',
      writes: true,
      required: true,
    }),
  },
})
