import { definePlugin, field } from '#sdk/plugin'

/** The address of the service; a credential's Base URL overrides it (a local stand-in in tests). */
export const DEFAULT_BASE_URL = 'https://api.example.com'

/**
 * Scaffold check 11767: asks the service's /v1/search endpoint and keeps the answer. Say here what the
 * block does for a builder, and why they would use it.
 */
export default definePlugin({
  id: 'scaffold-check-11767',
  name: 'Scaffold check 11767',
  description: 'Ask Scaffold check 11767 and keep its answer',
  category: 'integration',
  scope: 'user',
  icon: 'plug',
  version: 1,
  serves: ['bot', 'workflow'],
  credentials: {
    apiKey: field.string({ label: 'API key', secret: true, required: true }),
    baseUrl: field.string({
      label: 'Base URL',
      defaultValue: DEFAULT_BASE_URL,
      helperText: 'Change it only to reach another server speaking the same API.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'scaffold-check-11767',
      required: true,
    }),
    query: field.string({ label: 'Query', allowVariables: true, required: true }),
    saveResultInVariableId: field.variable({ label: 'Save the answer in', writes: true }),
  },
})
