import { definePlugin } from '#sdk/plugin'
import { agentToolFields } from '#sdk/ai_fields'

/**
 * A tool for LLM agent nodes: code run in the sandbox (10 s, 32 MB) with the model's
 * inputs as variables; what it returns is the answer.
 */
export default definePlugin({
  id: 'custom-tool',
  name: 'Custom tool',
  fullName: 'Custom tool for an AI agent',
  tags: ['agent', 'javascript', 'function', 'tool'],
  description: 'Code an agent can call',
  category: 'tool',
  scope: 'user',
  icon: 'square-code',
  version: 1,
  serves: ['workflow'],
  options: agentToolFields(),
})
