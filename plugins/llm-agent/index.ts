import { definePlugin, field } from '#sdk/plugin'
import { agentToolFields, apiToolFields, DEFAULT_SYSTEM_PROMPT } from '#sdk/ai_fields'

export const LLM_AGENTS = [{ label: 'Groq', value: 'groq' }] as const

const BOT: ['bot'] = ['bot']

/**
 * An LLM agent. In a bot: a Groq-hosted model that answers the user query and may call the
 * block's custom tools (code run in the sandbox) and API tools (HTTP calls) on the way. In a
 * workflow: its model comes from the node plugged into its Model slot, its tools from the
 * nodes plugged into its Tools slot (one Model attachment,
 * many Tools).
 */
export default definePlugin({
  id: 'llm-agent',
  name: 'LLM agent',
  fullName: 'LLM agent with tools',
  tags: ['ai', 'agent', 'llm', 'tools'],
  description: 'Answer with a model that can call tools',
  category: 'integration',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  serves: ['bot', 'workflow'],
  importsFrom: { n8n: ['@n8n/n8n-nodes-langchain.agent'] },
  // Workflows saved before the bot block and the workflow node became one store this id.
  aliases: ['workflow-llm-agent'],
  attachments: [
    { name: 'model', label: 'Model', accepts: ['model'], required: true },
    { name: 'tools', label: 'Tools', accepts: ['tool'], multiple: true },
  ],
  options: {
    agent: field.enum({
      label: 'Agent',
      options: LLM_AGENTS,
      placeholder: 'Select an agent',
      surfaces: BOT,
    }),
    secretKey: field.string({
      label: 'API key',
      placeholder: 'gsk_...',
      secret: true,
      helperText: 'Your Groq API key.',
      showIf: { field: 'agent', notEmpty: true },
      surfaces: BOT,
    }),
    customToolEnabled: field.boolean({ label: 'Custom tools', defaultValue: false, surfaces: BOT }),
    customTool: field.list(agentToolFields(), {
      label: 'Custom tools',
      itemLabel: 'tool',
      showIf: { field: 'customToolEnabled', equals: true },
      surfaces: BOT,
    }),
    apiConfigEnabled: field.boolean({ label: 'API tools', defaultValue: false, surfaces: BOT }),
    apiConfig: field.list(apiToolFields(), {
      label: 'API tools',
      itemLabel: 'API',
      showIf: { field: 'apiConfigEnabled', equals: true },
      surfaces: BOT,
    }),
    knowledgeStoreId: field.string({
      label: 'Knowledge store',
      placeholder: 'None',
      optionsFrom: { fetcher: 'knowledgeStores' },
      helperText:
        'A store of the Vectors page the agent may search (tool "search_knowledge"); it gets passages with their sources.',
    }),
    knowledgeDocuments: field.number({
      label: 'Passages per search',
      min: 1,
      max: 20,
      step: 1,
      defaultValue: 3,
      showIf: { field: 'knowledgeStoreId', notEmpty: true },
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
      from: ['Message content', 'Total tokens', 'Knowledge sources'],
      surfaces: BOT,
    }),
    /** Tests and self-hosted proxies point the agent elsewhere; not in the form. */
    baseUrl: field.string({ label: 'Base URL', hidden: true, surfaces: BOT }),
  },
})
