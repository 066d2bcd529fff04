import { definePlugin, field } from '#sdk/plugin'
import {
  API_TOOL_DEFAULT_TIMEOUT_MS,
  API_TOOL_MAX_TIMEOUT_MS,
  API_TOOL_MIN_TIMEOUT_MS,
  apiToolFields,
} from '#sdk/ai_fields'

/**
 * A tool for LLM agent nodes: an HTTP API whose path, query and body parameters the model
 * fills in.
 */
export default definePlugin({
  id: 'api-tool',
  name: 'API tool',
  fullName: 'API tool for an AI agent',
  tags: ['agent', 'http', 'rest', 'tool'],
  description: 'An HTTP API an agent can call',
  category: 'tool',
  scope: 'user',
  icon: 'globe',
  version: 1,
  serves: ['workflow'],
  options: {
    ...apiToolFields(),
    timeout: field.number({
      label: 'Timeout (ms)',
      min: API_TOOL_MIN_TIMEOUT_MS,
      max: API_TOOL_MAX_TIMEOUT_MS,
      step: 1000,
      defaultValue: API_TOOL_DEFAULT_TIMEOUT_MS,
    }),
  },
})
