import { definePlugin, field } from '#sdk/plugin'

/** Dify's hosted API; self-hosted instances put their own address here. */
export const DIFY_DEFAULT_ENDPOINT = 'https://api.dify.ai'
/** An http(s) URL written with its protocol and a host. */
export const DIFY_ENDPOINT_PATTERN = '^https?://[^\\s/?#]+'
export const DIFY_ENDPOINT_MESSAGE = 'The API endpoint must be an http or https URL'

/**
 * The origin of the endpoint (it is reduced to its origin), or
 * undefined when it is not an http(s) URL with its protocol. People paste the API base
 * shown by Dify (https://api.dify.ai/v1) or their instance's address: both give the origin.
 */
export function difyOrigin(endpoint: unknown): string | undefined {
  const text = typeof endpoint === 'string' ? endpoint.trim() : ''
  if (!new RegExp(DIFY_ENDPOINT_PATTERN, 'i').test(text)) return undefined
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * A Dify app (chatbot, agent or chatflow) answering in the chat: the visitor's message is
 * the query, the conversation continues across turns through the conversation id.
 */
export default definePlugin({
  id: 'dify-ai',
  name: 'Dify',
  fullName: 'Dify.AI app',
  tags: ['ai', 'llm', 'agent', 'workflow'],
  description: 'Ask a Dify app and keep the conversation going',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://docs.dify.ai/guides/application-publishing/developing-with-apis',
  serves: ['bot'],
  credentials: {
    apiEndpoint: field.string({
      label: 'API endpoint',
      defaultValue: DIFY_DEFAULT_ENDPOINT,
      placeholder: DIFY_DEFAULT_ENDPOINT,
      required: true,
      pattern: DIFY_ENDPOINT_PATTERN,
      patternMessage: DIFY_ENDPOINT_MESSAGE,
      helperText: 'Your Dify address with http:// or https://; only its origin is kept.',
    }),
    apiKey: field.string({
      label: 'App API key',
      placeholder: 'app-...',
      secret: true,
      required: true,
      helperText: "The app's API key, from its API Access page.",
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'dify-ai',
      required: true,
    }),
  },
  actions: {
    'Create Chat Message': {
      label: 'Create Chat Message',
      options: {
        query: field.string({
          label: 'Query',
          multiline: true,
          allowVariables: true,
          required: true,
          placeholder: '{{Last message}}',
        }),
        conversationVariableId: field.variable({
          label: 'Conversation ID variable',
          writes: true,
          helperText: 'Keeps the conversation going: read before the call, saved after it.',
        }),
        user: field.string({
          label: 'User',
          allowVariables: true,
          helperText: 'Who asks, for Dify. Empty: the chat session.',
        }),
        inputs: field.keyValue({
          label: 'Inputs',
          keyLabel: 'Variable',
          valueLabel: 'Value',
          allowVariables: true,
        }),
        responseMapping: field.responseMapping({
          label: 'Save the response',
          from: ['Answer', 'Conversation ID', 'Total Tokens'],
        }),
      },
    },
  },
})
