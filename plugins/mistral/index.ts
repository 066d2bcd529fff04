import { definePlugin, field } from '#sdk/plugin'
import { chatMessagesField, functionToolsField, knowledgeFields } from '#sdk/ai_fields'

export const MISTRAL_BASE_URL = 'https://api.mistral.ai/v1'
export const MISTRAL_DEFAULT_MODEL = 'mistral-small-latest'
export const EXTRACTED_TYPES = ['string', 'number', 'boolean', 'enum'] as const

const model = () =>
  field.string({
    label: 'Model',
    defaultValue: MISTRAL_DEFAULT_MODEL,
    optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'] },
  })

/**
 * Mistral AI models: chat completions (the OpenAI-like API of api.mistral.ai) and
 * extraction of typed variables from a text.
 */
export default definePlugin({
  id: 'mistral',
  name: 'Mistral',
  fullName: 'Mistral AI',
  tags: ['ai', 'llm', 'chat', 'model'],
  description: 'Chat completions and variable extraction with Mistral AI models',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://docs.mistral.ai/api/',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      secret: true,
      required: true,
      helperText: 'Create one in the Mistral AI console under API keys.',
    }),
    // Not in the form (Mistral credentials are the key); kept for proxies and the
    // local stand-in the tests talk to.
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: MISTRAL_BASE_URL,
      hidden: true,
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'mistral',
      required: true,
    }),
  },
  actions: {
    'Create chat completion': {
      label: 'Create chat completion',
      options: {
        model: model(),
        messages: chatMessagesField(),
        tools: functionToolsField(),
        ...knowledgeFields(),
        responseMapping: field.responseMapping({
          label: 'Save the response',
          from: ['Message content', 'Knowledge sources'],
        }),
      },
    },
    'Generate variables': {
      label: 'Generate variables',
      options: {
        model: model(),
        prompt: field.string({
          label: 'Prompt',
          multiline: true,
          allowVariables: true,
          required: true,
          placeholder: 'Extract the name, age and city from: {{Message}}',
        }),
        variablesToExtract: field.list(
          {
            variableId: field.variable({ label: 'Variable', writes: true }),
            type: field.enum({ label: 'Type', options: EXTRACTED_TYPES, defaultValue: 'string' }),
            values: field.list(
              { value: field.string({ label: 'Value' }) },
              { label: 'Values', itemLabel: 'value', showIf: { field: 'type', equals: 'enum' } }
            ),
            description: field.string({
              label: 'Description',
              helperText: 'What the variable holds, for the model.',
            }),
            isRequired: field.boolean({ label: 'Required', defaultValue: true }),
          },
          { label: 'Variables to extract', itemLabel: 'variable' }
        ),
      },
    },
  },
})
