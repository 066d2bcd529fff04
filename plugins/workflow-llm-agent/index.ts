import { definePlugin, field } from '#sdk/plugin'
import { DEFAULT_SYSTEM_PROMPT } from '#sdk/ai_fields'

/**
 * An LLM agent node: its model comes from the node plugged into its Model slot, its tools
 * from the nodes plugged into its Tools slot (docs/spec/03-integrations.md: one Model attachment, many Tools).
 */
export default definePlugin({
  id: 'workflow-llm-agent',
  name: 'LLM agent',
  description: 'Answer with a model that can call tools',
  category: 'action',
  scope: 'user',
  icon: 'sparkles',
  version: 1,
  serves: ['workflow'],
  attachments: [
    { name: 'model', label: 'Model', accepts: ['model'], required: true },
    { name: 'tools', label: 'Tools', accepts: ['tool'], multiple: true },
  ],
  options: {
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
      placeholder: '{{$input.question}}',
    }),
  },
})
