import { definePlugin, field } from '#sdk/plugin'
import { agentToolFields, apiToolFields, DEFAULT_SYSTEM_PROMPT } from '#sdk/ai_fields'

export const LLM_AGENTS = [{ label: 'Groq', value: 'groq' }] as const

/**
 * An LLM agent in a bot: a Groq-hosted model that answers the user query and may call the
 * block's custom tools (code run in the sandbox) and API tools (HTTP calls) on the way.
 */
export default definePlugin({
  id: 'llm-agent',
  name: 'LLM agent',
  description: 'Answer with a model that can call your code and your APIs',
  category: 'integration',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  serves: ['bot'],
  options: {
    agent: field.enum({ label: 'Agent', options: LLM_AGENTS, placeholder: 'Select an agent' }),
    secretKey: field.string({
      label: 'API key',
      placeholder: 'gsk_...',
      secret: true,
      helperText: 'Your Groq API key.',
      showIf: { field: 'agent', notEmpty: true },
    }),
    customToolEnabled: field.boolean({ label: 'Custom tools', defaultValue: false }),
    customTool: field.list(agentToolFields(), {
      label: 'Custom tools',
      itemLabel: 'tool',
      showIf: { field: 'customToolEnabled', equals: true },
    }),
    apiConfigEnabled: field.boolean({ label: 'API tools', defaultValue: false }),
    apiConfig: field.list(apiToolFields(), {
      label: 'API tools',
      itemLabel: 'API',
      showIf: { field: 'apiConfigEnabled', equals: true },
    }),
    queryPrompt: field.string({
      label: 'System prompt',
      multiline: true,
      allowVariables: true,
      defaultValue: DEFAULT_SYSTEM_PROMPT,
    }),
    userQuery: field.string({
      label: 'User query',
      multiline: true,
      allowVariables: true,
      required: true,
      placeholder: '{{Question}}',
    }),
    responseMapping: field.responseMapping({
      label: 'Save the response',
      from: ['Message content', 'Total tokens'],
    }),
    /** Tests and self-hosted proxies point the agent elsewhere; not in the form. */
    baseUrl: field.string({ label: 'Base URL', hidden: true }),
  },
})
